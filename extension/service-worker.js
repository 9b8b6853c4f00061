// @ts-check
// The service worker's entry: static imports (each module registers its
// chrome.* listeners as it loads) and start-up. No logic lives here.

import { send, start } from './sw/port.js';
import { createRouter } from './sw/router.js';

const router = createRouter(send);

start({
  onFrame: (message) => router.handle(message),
  // The host is gone and so is whoever waited for these results.
  onClose: () => router.cancelAll(),
});
