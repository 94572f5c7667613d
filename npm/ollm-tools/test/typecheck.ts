// Compiled with `tsc --strict --noEmit` against the installed package: the
// shipped declarations type a user's code (and reject wrong uses).
import { Compress, LoopCheck, NotFoundError, Session, textMessage, type LoopVerdict, type SessionDocument } from "ollm-tools";

export async function turn(): Promise<string | null> {
  const sessions = new Session({ env: { OLLM_HOME: "/tmp/x" } });
  const { sessionId } = await sessions.create({ model: "m", provider: "p" });
  await sessions.record(sessionId, textMessage("user", "hi"));
  const doc: SessionDocument = await sessions.get(sessionId);
  const verdict: LoopVerdict = await new LoopCheck().check([{ type: "tool", name: "ls", args: {} }]);
  const check = await new Compress().check(doc, { tokenLimit: 8192 });
  // @ts-expect-error: not an event type
  await new LoopCheck().check([{ type: "tool-call" }]);
  // @ts-expect-error: a strategy the program does not have
  await new Compress().compress(doc, { strategy: "magic" });
  try {
    await sessions.get("nope");
  } catch (error) {
    if (error instanceof NotFoundError) return error.message;
  }
  return check.needed ? verdict.pattern?.details ?? null : doc.messages[0]?.parts[0]?.text ?? null;
}
