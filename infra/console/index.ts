export {
  CONSOLE_API_PATH,
  CONSOLE_PATH,
  type ConsoleService,
  consoleService,
  TOKEN_HEADER,
} from './consoleService.js';
export type { ConsoleSources } from './sources.js';
