import { describe, expect, it, vi } from 'vitest';
import { AlertSound, SOUND_MUTED_KEY, type TAudioLike } from './alertSound';

/** A fake AudioContext: `allowResume` says whether the browser lets it run (a user gesture happened). */
function fakeContext(initial: 'running' | 'suspended', allowResume: () => boolean) {
  const started: number[] = [];
  const ctx = {
    state: initial as string,
    resume: vi.fn(async function (this: { state: string }) {
      if (allowResume()) ctx.state = 'running';
      else await new Promise(() => undefined); // Chromium leaves it pending
    }),
    decodeAudioData: vi.fn(async () => ({}) as AudioBuffer),
    createBufferSource: () =>
      ({ buffer: null, connect: () => undefined, start: () => started.push(1) }) as unknown as AudioBufferSourceNode,
    destination: {} as AudioNode,
  };
  return { ctx: ctx as TAudioLike & { state: string }, started };
}

function memoryStorage(initial: Record<string, string> = {}) {
  const m = new Map(Object.entries(initial));
  return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v), m };
}

const chime = async () => new ArrayBuffer(8);

describe('AlertSound', () => {
  it('is blocked when the browser starts the context suspended, and the enable click resumes and plays', async () => {
    let gesture = false;
    const { ctx, started } = fakeContext('suspended', () => gesture);
    const sound = new AlertSound({ createContext: () => ctx, loadChime: chime, storage: memoryStorage() });
    // Not called blocked before the probe has had its chance (no message flashes when sound is allowed).
    expect(sound.state).toBe('ready');
    await vi.waitFor(() => expect(sound.state).toBe('blocked'));
    expect(await sound.play()).toBe(false);
    expect(sound.state).toBe('blocked');
    const changes = vi.fn();
    sound.onChange(changes);
    gesture = true;
    expect(await sound.enable()).toBe(true);
    expect(sound.state).toBe('ready');
    expect(changes).toHaveBeenCalled();
    expect(await sound.play()).toBe(true);
    expect(started).toHaveLength(2);
  });

  it('is ready when the browser starts a new (suspended) context by itself', async () => {
    const { ctx } = fakeContext('suspended', () => true);
    const sound = new AlertSound({ createContext: () => ctx, loadChime: chime, storage: null });
    ctx.state = 'running';
    await new Promise((r) => setTimeout(r, 350));
    expect(sound.state).toBe('ready');
    expect(ctx.resume).not.toHaveBeenCalled();
  });

  it('plays at once when the browser allows it, loading the chime once', async () => {
    const { ctx, started } = fakeContext('running', () => true);
    const load = vi.fn(chime);
    const sound = new AlertSound({ createContext: () => ctx, loadChime: load, storage: null });
    expect(sound.state).toBe('ready');
    await sound.play();
    await sound.play();
    expect(started).toHaveLength(2);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('remembers the mute switch and stays silent while muted', async () => {
    const storage = memoryStorage({ [SOUND_MUTED_KEY]: '1' });
    const { ctx, started } = fakeContext('running', () => true);
    const sound = new AlertSound({ createContext: () => ctx, loadChime: chime, storage });
    expect(sound.state).toBe('muted');
    expect(await sound.play()).toBe(false);
    expect(started).toHaveLength(0);
    sound.setMuted(false);
    expect(storage.m.get(SOUND_MUTED_KEY)).toBe('0');
    expect(sound.state).toBe('ready');
  });

  it('counts as blocked without Web Audio at all', async () => {
    const sound = new AlertSound({ createContext: () => null, loadChime: chime, storage: null });
    expect(sound.state).toBe('blocked');
    expect(await sound.enable()).toBe(false);
  });
});
