// @ts-check
// The service worker's entry: static imports (each module registers its
// chrome.* listeners as it loads) and start-up. No logic lives here.

import * as evidence from './sw/evidence.js';
import * as human from './sw/human.js';
import { send, start } from './sw/port.js';
import { createRouter } from './sw/router.js';

const router = createRouter(send, human.onState);
human.start(router);

start({
  onFrame: (message) => router.handle(message),
  onOpen: human.connected,
  onClose: (reason) => {
    // The host is gone and so is whoever waited for these results.
    router.cancelAll();
    human.disconnected(reason);
  },
});

// The agent's tabs are the group's, whatever a previous worker knew: keep
// what they log from now on.
evidence.watchAll();
