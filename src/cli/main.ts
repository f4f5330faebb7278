import { run } from './program.js';

// The `partner-gateway` command line: bin/partner-gateway.js runs this file from dist/.

process.exitCode = await run(process.argv);
