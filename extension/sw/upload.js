// @ts-check
// Setting the files of a file input, as a person's choice in a file chooser
// would (CDP's DOM.setFileInputFiles: the page gets its input and change
// events). The host has checked every path against the upload roots; this
// side finds the input, by ref or as the input behind an open chooser, and
// says what the page did with the files, as any action does: a form that
// sends itself on a choice, a preview drawn. A ref that is no file input is
// a drop zone: the files are dragged onto it (sw/target.js dropFiles).

import { ActionError } from '../lib/errors.js';
import * as cdp from './cdp.js';
import * as chooser from './file-chooser.js';
import { runWatched } from './input-effects.js';
import * as pageScript from './page-script.js';
import { Target } from './target.js';

/**
 * The deep search, in the page's main world, for the element the page
 * script marked: through open shadow roots and same-origin frames, which is
 * where the page script reaches too.
 * @param {string} mark
 */
function findMarked(mark) {
  return `(() => {
  const want = '[data-openchrome-upload="${mark}"]';
  const roots = [document];
  for (let i = 0; i < roots.length; i++) {
    const hit = roots[i].querySelector(want);
    if (hit) return hit;
    for (const el of roots[i].querySelectorAll('*')) {
      if (el.shadowRoot) roots.push(el.shadowRoot);
      if (el instanceof HTMLIFrameElement) {
        try { if (el.contentDocument) roots.push(el.contentDocument); } catch {}
      }
    }
  }
  return null;
})()`;
}

/**
 * Sets files on the input behind rawRef, or when rawRef is undefined on the
 * input of the chooser open in tabId.
 * @param {number} tabId
 * @param {unknown} rawRef
 * @param {string[]} files absolute paths
 * @param {AbortSignal} signal
 * @returns {Promise<Record<string, unknown>>}
 */
export async function upload(tabId, rawRef, files, signal) {
  if (rawRef === undefined) return answerChooser(tabId, files, signal);
  const t = await pageScript.resolve(tabId, rawRef);
  const mark = crypto.randomUUID();
  const el = await pageScript.onRef(t, 'dom', { op: 'markUpload', value: mark }, signal);
  try {
    if (!el.file) {
      // A drop zone with no file input of its own: the files are dragged in.
      const offset = await pageScript.frameOffset(tabId, t.frameId, signal);
      return { ...(await new Target(t, offset, signal).dropFiles(files)), files: files.length };
    }
    if (files.length > 1 && !el.multiple) {
      throw new ActionError('bad_request', `e${t.ref} takes one file, not ${files.length}`);
    }
    const found = await cdp.send(tabId, 'Runtime.evaluate', { expression: findMarked(mark) }, { signal });
    const objectId = found.result?.objectId;
    if (!objectId) {
      throw new ActionError('bad_request', `e${t.ref} is in a frame upload_file cannot reach (a cross-site frame)`,
        'click it to open its file chooser, then call upload_file without ref');
    }
    // No pointer goes to it: where its frame sits does not matter.
    const target = new Target(t, { x: 0, y: 0 }, signal);
    target.label = el.label;
    await target.watch();
    const a = await target.attempt(async () => {
      try {
        await cdp.send(tabId, 'DOM.setFileInputFiles', { files, objectId }, { signal });
      } finally {
        cdp.undo(tabId, 'Runtime.releaseObject', { objectId });
      }
      chooser.answered(tabId);
    });
    return { ...(await target.done('upload', undefined, a)), files: files.length };
  } finally {
    pageScript.onRef(t, 'dom', { op: 'unmarkUpload' }, signal).catch(() => {});
  }
}

/**
 * @param {number} tabId
 * @param {string[]} files
 * @param {AbortSignal} signal
 */
async function answerChooser(tabId, files, signal) {
  const open = chooser.current(tabId);
  if (!open) {
    throw new ActionError('bad_request', 'no file chooser is open in this tab',
      'pass ref: the file input (read_page shows it), or a drop zone (find "drop files"); or click what opens the chooser first');
  }
  if (open.backendNodeId === undefined) {
    throw new ActionError('bad_request', 'the open file chooser has no file input behind it',
      'pass ref, the file input (read_page shows it)');
  }
  if (files.length > 1 && !open.multiple) {
    throw new ActionError('bad_request', `the file chooser takes one file, not ${files.length}`);
  }
  // The chooser's input has no ref: what the page did is watched on the
  // whole of the top document.
  const out = await runWatched(tabId, async (s) => {
    await cdp.send(tabId, 'DOM.setFileInputFiles', { files, backendNodeId: open.backendNodeId }, { signal: s });
    chooser.answered(tabId);
  }, signal);
  return { action: 'upload', delivered: true, chooser: true, files: files.length, ...out };
}
