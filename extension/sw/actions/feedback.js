// @ts-check
// feedback.request: a question for the person at the browser
// (browser_request_feedback, docs/human.md), shown in the tab's overlay or
// the side panel; sw/feedback.js does the work.

import { tabAction } from '../../lib/router.js';
import * as feedback from '../feedback.js';

export const ACTIONS = [
  // The person's time: the side panel asks when the page cannot.
  tabAction('feedback.request', feedback.ask, { unwatched: true }),
];
