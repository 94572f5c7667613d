// Command-line arguments from option objects: a flag per set option, values
// as separate arguments (never through a shell).

export type FlagValue = string | number | boolean | readonly string[] | undefined | null;

/**
 * `--name value` for each set option (`--name` alone for `true`, repeated for
 * a list); the list under `--` comes as positional arguments after it.
 */
export function flags(spec: Record<string, FlagValue>): string[] {
  const out: string[] = [];
  for (const [name, value] of Object.entries(spec)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === "--" && typeof value === "object") out.push("--", ...value);
    else if (value === true) out.push(name);
    else if (typeof value === "object") for (const item of value) out.push(name, item);
    else out.push(name, String(value));
  }
  return out;
}

/** A stored session: its id (a unique prefix of 4+ characters, or its title), or the latest one. */
export type SessionRef = string | { last: true; here?: boolean };

/** The arguments naming a session; `input` is the positional INPUT that follows (record). */
export function sessionArgs(ref: SessionRef): string[] {
  if (typeof ref === "string") return [ref];
  return ref.here === true ? ["--last", "--here"] : ["--last"];
}
