// The developer tools' composition (development only: imported by the lazily loaded dev views, so none of it is
// in the production bundle): the connection debugger and the WebSocket tester with their real services.
import { connectionDebuggerMachine } from './machines/connectionDebugger.machine';
import { wsTesterMachine } from './machines/wsTester.machine';
import {
  copyToClipboard,
  createHttpProbe,
  createSocketProbe,
  createTesterSocket,
  type DebugProbeDeps,
} from './services/debugProbes';

export function createDevToolsLogic(deps: DebugProbeDeps) {
  return {
    connectionDebugger: connectionDebuggerMachine.provide({
      actors: {
        probeSocket: createSocketProbe(deps),
        probeHttp: createHttpProbe(deps),
        copyText: copyToClipboard(deps),
      },
    }),
    wsTester: wsTesterMachine.provide({ actors: { testerSocket: createTesterSocket(deps) } }),
  };
}
