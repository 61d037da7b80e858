/**
 * The `eddy` command line. `eddy serve` (also `npm start`) arrives with the host issue.
 */
const [command] = process.argv.slice(2);
if (command === 'serve' || command === undefined) {
  console.log('eddy: the server arrives with the host issue (#4). The engine is usable in-process today:');
  console.log("  import { Engine } from './core/engine.js'; new Engine().execute('CreateTable', {...})");
  process.exit(0);
}
console.error(`eddy: unknown command ${command}`);
process.exit(2);
