#!/usr/bin/env node
// cli: the `rivals` executable.
import { run } from './program.js';

// `rivals ... | head`: a closed pipe ends the command quietly.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});
process.exitCode = await run(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin });
