/**
 * The sale sound: a short two-note chime made with WebAudio (no audio file to download).
 * Plays only when the player left sound on; failures are silent.
 */
import { useSettings } from '../settings';

let ctx: AudioContext | null = null;

export function playSaleSound(): void {
  if (!useSettings.getState().soundEnabled) return;
  try {
    const Ctor = window.AudioContext ?? (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
    if (!Ctor) return;
    ctx ??= new Ctor();
    const now = ctx.currentTime;
    for (const [freq, at] of [
      [880, 0],
      [1320, 0.09],
    ] as const) {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.type = 'triangle';
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, now + at);
      gain.gain.exponentialRampToValueAtTime(0.18, now + at + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + at + 0.22);
      osc.connect(gain).connect(ctx.destination);
      osc.start(now + at);
      osc.stop(now + at + 0.25);
    }
  } catch {
    // No audio: the toast still says it.
  }
}
