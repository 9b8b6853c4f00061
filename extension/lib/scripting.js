// @ts-check
// What chrome.scripting's failures mean to an agent. Every caller of
// executeScript maps its errors here, so a page no script may run in says
// the same thing whichever tool met it.

import { ActionError } from './errors.js';

/**
 * Maps a chrome.scripting failure to the coded error an agent can act on;
 * anything it does not know is returned as it is.
 * @param {unknown} err
 * @param {{ documentId?: string }} [where] the document the call aimed at, if one
 * @returns {unknown}
 */
export function scriptingError(err, where = {}) {
  if (err instanceof ActionError || (err instanceof Error && err.name === 'AbortError')) return err;
  const text = err instanceof Error ? err.message : String(err);
  if (where.documentId && /no document|document.*(not|no longer)|frame.*removed|no frame/i.test(text)) {
    return new ActionError('stale_ref', 'the ref is from a page this tab has left (it navigated or reloaded)',
      'call read_page for fresh refs');
  }
  if (/showing error page/i.test(text)) {
    return new ActionError('not_found', "the tab shows Chrome's error page: its last navigation failed",
      'navigate to a page that loads, or navigate with url "back"');
  }
  if (/cannot access|cannot be scripted|extensions gallery|chrome:\/\//i.test(text)) {
    return new ActionError('tab_not_allowed',
      'Chrome does not let extensions read this page (a chrome:// page, the Web Store, or a PDF)',
      'navigate the tab to an ordinary web page');
  }
  if (/no tab with id/i.test(text)) {
    return new ActionError('tab_not_found', 'the tab is gone', "call tabs_context for the agent's tabs");
  }
  if (/no frame with id/i.test(text)) {
    return new ActionError('not_found', 'the frame is gone', 'call read_page');
  }
  return err;
}
