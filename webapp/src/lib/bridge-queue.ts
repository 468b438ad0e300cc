/**
 * Calls into the Telegram SDK, one per task.
 *
 * The first call of each SDK function checks the environment by re-reading and re-validating
 * the launch parameters (valibot schemas, a session-storage write): a few milliseconds each
 * on a fast machine, a long task on a slow phone once a dozen of them run back to back at
 * start. Queued calls run in order, each in its own macrotask (a `MessageChannel` message, not
 * clamped like nested `setTimeout`s), so the page can paint and react between them, and a
 * call made from a React effect does not lengthen the render's task.
 */
type Job = () => void;

const jobs: Job[] = [];
let scheduled = false;
let channel: MessageChannel | null = null;

function schedule(): void {
  if (scheduled) return;
  scheduled = true;
  if (typeof MessageChannel === 'function') {
    if (!channel) {
      channel = new MessageChannel();
      channel.port1.onmessage = runOne;
    }
    channel.port2.postMessage(null);
  } else {
    setTimeout(runOne, 0);
  }
}

function runOne(): void {
  scheduled = false;
  const job = jobs.shift();
  if (jobs.length) schedule();
  if (!job) return;
  try {
    job();
  } catch (e) {
    console.warn('telegram call failed', e);
  }
}

/** Queues `job` behind the calls already waiting; it runs in a task of its own. */
export function bridgeCall(job: Job): void {
  jobs.push(job);
  schedule();
}

/** Start-up work: the same as `bridgeCall` (the name says the call is not needed at once). */
export const bridgeLater = bridgeCall;

/** Resolves after a task boundary: the browser may paint and handle input meanwhile. */
export function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    if (typeof MessageChannel !== 'function') {
      setTimeout(resolve, 0);
      return;
    }
    const ch = new MessageChannel();
    ch.port1.onmessage = () => {
      ch.port1.close();
      resolve();
    };
    ch.port2.postMessage(null);
  });
}

/** Resolves once every call queued so far has run. */
export function bridgeIdle(): Promise<void> {
  return new Promise((resolve) => bridgeCall(resolve));
}
