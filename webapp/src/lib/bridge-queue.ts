/**
 * Calls into the Telegram SDK, one per task.
 *
 * The first call of each SDK function checks the environment by re-reading and re-validating
 * the launch parameters (valibot schemas, a session-storage write): a few milliseconds each
 * on a fast machine, a long task on a slow phone once a dozen of them run back to back at
 * start. Queued calls run in order, each in its own macrotask (a `MessageChannel` message, not
 * clamped like nested `setTimeout`s), so the page can paint and react between them. While the
 * queue is empty a call runs at once, so later calls (a tap's haptic) keep their timing.
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

/** Queues `job` behind the calls already waiting; runs it now when none is. */
export function bridgeCall(job: Job): void {
  if (jobs.length === 0 && !scheduled) {
    try {
      job();
    } catch (e) {
      console.warn('telegram call failed', e);
    }
    return;
  }
  jobs.push(job);
  schedule();
}

/** Queues `job` as its own task even when nothing waits (start-up work). */
export function bridgeLater(job: Job): void {
  jobs.push(job);
  schedule();
}

/** Resolves once every call queued so far has run. */
export function bridgeIdle(): Promise<void> {
  return new Promise((resolve) => bridgeCall(resolve));
}
