// lms.js: the SCORM side of attention-lab's LMS packages (web/lms-package.js writes them), a classic
// script after attention-lab.js on the package's launch page. On <attention-lab data-scorm="1.2|2004"
// data-mastery-score="0..1"> it finds the LMS's API the standard way (this window's parents, then the
// opener's), restores the learner's answers from suspend_data, and reports what the element's summary
// says: the score (first-try right / questions), completion once every question is answered, success
// against the mastery score (the LMS's, else the author's), the answers in suspend_data and the session
// time. With no LMS, or one whose API refuses or throws, the page is the plain page: nothing is reported.
'use strict';
(() => {
  const lab = document.querySelector('attention-lab[data-scorm]');
  if (!lab) return;
  const v2004 = lab.dataset.scorm === '2004';
  const NAME = v2004 ? 'API_1484_11' : 'API';
  const CALLS = v2004
    ? { init: 'Initialize', get: 'GetValue', set: 'SetValue', commit: 'Commit', finish: 'Terminate' }
    : { init: 'LMSInitialize', get: 'LMSGetValue', set: 'LMSSetValue', commit: 'LMSCommit', finish: 'LMSFinish' };
  const CMI = v2004
    ? { mastery: 'cmi.scaled_passing_score', exit: 'cmi.exit', time: 'cmi.session_time', suspendLimit: 64000 }
    : { mastery: 'cmi.student_data.mastery_score', exit: 'cmi.core.exit', time: 'cmi.core.session_time', suspendLimit: 4096 };

  // The API's search, as SCORM's run-time environment defines it: up the parents (at most 500), then
  // up from the top window's opener. A window of another origin cannot be read: the search goes past it.
  function search(win) {
    for (let tries = 0; win && tries <= 500; tries++) {
      try { if (win[NAME]) return win[NAME]; } catch { /* another origin's window */ }
      let parent = null;
      try { parent = win.parent; } catch { return null; }
      if (!parent || parent === win) return null;
      win = parent;
    }
    return null;
  }
  let api = search(window);
  if (!api) { try { api = window.top.opener ? search(window.top.opener) : null; } catch { api = null; } }
  if (!api) return;   // no LMS: the plain page

  // Every call guarded: an API that throws is left alone from then on, and the page goes on.
  let broken = false;
  function call(name, ...args) {
    if (broken) return '';
    try {
      return String(api[name](...args));
    } catch (e) {
      broken = true;
      console.warn(`attention-lab: the LMS's ${NAME}.${name} threw (${(e && e.message) || e}); the page goes on without reporting to the LMS.`);
      return '';
    }
  }
  if (call(CALLS.init, '') !== 'true') {
    if (!broken) console.warn(`attention-lab: the LMS's ${NAME}.${CALLS.init} refused to start a session; the page goes on without reporting to it.`);
    return;
  }
  const started = Date.now();
  const get = (key) => call(CALLS.get, key);
  const set = (key, value) => call(CALLS.set, key, String(value));

  // The mastery score as a fraction: the LMS's (from the package's manifest, or its own setting), else
  // the author's, else none (then the learner completes, but neither passes nor fails).
  const fraction = (text, scale) => (text !== '' && Number.isFinite(Number(text)) ? Number(text) / scale : null);
  const mastery = fraction(get(CMI.mastery), v2004 ? 1 : 100) ?? fraction(lab.dataset.masteryScore ?? '', 1);

  // The answers of the last session (suspend_data); a first launch starts from none, as the LMS is the
  // learner's record here (not this browser's localStorage, which another learner may have filled).
  let progress = { version: 1, entries: {} };
  const saved = get('cmi.suspend_data');
  if (saved) {
    try { progress = JSON.parse(saved); } catch { console.warn('attention-lab: the LMS\'s suspend_data is not what this package wrote; the answers start afresh.'); }
  }
  try { lab.progress = progress; } catch (e) { console.warn(e.message); lab.progress = { version: 1, entries: {} }; }

  const round = (x, digits) => Math.round(x * 10 ** digits) / 10 ** digits;
  // The session's time as each version writes it: 1.2 HHHH:MM:SS.SS, 2004 an ISO 8601 duration.
  function sessionTime() {
    const s = (Date.now() - started) / 1000;
    const hours = Math.floor(s / 3600), minutes = Math.floor((s % 3600) / 60), seconds = round(s % 60, 2);
    if (v2004) return `PT${hours}H${minutes}M${seconds}S`;
    const two = (n) => String(n).padStart(2, '0');
    return `${two(hours)}:${two(minutes)}:${seconds.toFixed(2).padStart(5, '0')}`;
  }

  function report({ answered, firstTryRight, total }) {
    const complete = answered >= total;
    const scaled = total ? firstTryRight / total : 1;
    // SCORM 2004 keeps success apart from completion (its LMS judges score.scaled against
    // scaled_passing_score at any time); SCORM 1.2's one status says passed or failed once complete
    const success = mastery === null ? null : scaled >= mastery;
    if (v2004) {
      set('cmi.score.min', 0); set('cmi.score.max', total); set('cmi.score.raw', firstTryRight);
      set('cmi.score.scaled', round(scaled, 4));
      set('cmi.progress_measure', total ? round(answered / total, 4) : 1);
      set('cmi.completion_status', complete ? 'completed' : 'incomplete');
      set('cmi.success_status', success === null ? 'unknown' : success ? 'passed' : 'failed');
    } else {
      set('cmi.core.score.min', 0); set('cmi.core.score.max', 100); set('cmi.core.score.raw', round(scaled * 100, 2));
      set('cmi.core.lesson_status', !complete ? 'incomplete' : success === null ? 'completed' : success ? 'passed' : 'failed');
    }
    set(CMI.time, sessionTime());
    set(CMI.exit, 'suspend');   // the next launch resumes: the answers come back
    call(CALLS.commit, '');
  }

  lab.addEventListener('attention-lab-progress', (e) => {
    const text = JSON.stringify(e.detail.progress);
    if (text.length <= CMI.suspendLimit) set('cmi.suspend_data', text);
    else console.warn(`attention-lab: the answers take ${text.length} characters, more than SCORM ${v2004 ? '2004' : '1.2'}'s suspend_data holds (${CMI.suspendLimit}); the LMS keeps the score and status only.`);
  });
  lab.addEventListener('attention-lab-summary', (e) => report(e.detail));
  // Once every section is built (its questions counted), the summary of the restored answers (none when
  // the element shows a sentence instead).
  customElements.whenDefined('attention-lab').then(async () => {
    await lab.updateComplete;
    if (lab.summary) report(lab.summary);
  });

  let finished = false;
  addEventListener('pagehide', () => {
    if (finished) return;
    finished = true;
    set(CMI.time, sessionTime());
    set(CMI.exit, 'suspend');
    call(CALLS.commit, '');
    call(CALLS.finish, '');
  });
})();
