// The OLLM CLI's way of recording (bench/session.sh's baseline for
// sessions in its format): the session is parsed once and kept in memory,
// then each record is pushed and the whole file rewritten as its
// ChatRecordingService does: JSON.stringify(session, null, 2) into
// `<file>.tmp`, fsync, rename over the file, fsync of the directory.
//
//   node bench/cli_rewrite.js FILE RECORDS    prints milliseconds per record
'use strict';
const fs = require('fs');
const path = require('path');

const [file, count] = process.argv.slice(2);
const session = JSON.parse(fs.readFileSync(file, 'utf-8'));
const dir = path.dirname(file);
const started = process.hrtime.bigint();
for (let i = 0; i < Number(count); i++) {
  session.messages.push({
    role: 'user',
    parts: [{ type: 'text', text: `bench record ${i} with a line of ordinary chat text` }],
    timestamp: new Date().toISOString(),
  });
  session.lastActivity = new Date().toISOString();
  const temp = `${file}.tmp`;
  fs.writeFileSync(temp, JSON.stringify(session, null, 2), 'utf-8');
  const fd = fs.openSync(temp, 'r+');
  fs.fsyncSync(fd);
  fs.closeSync(fd);
  fs.renameSync(temp, file);
  const dirFd = fs.openSync(dir, 'r');
  fs.fsyncSync(dirFd);
  fs.closeSync(dirFd);
}
const ms = Number(process.hrtime.bigint() - started) / 1e6;
process.stdout.write(`${(ms / Number(count)).toFixed(3)}\n`);
