/**
 * The page's one {@link AlertSound} (one AudioContext per tab) and a hook exposing its state and actions.
 * The chime is a same-origin file (`?no-inline`: the CSP's default-src 'self' refuses data: media).
 */
import { useSyncExternalStore } from 'react';
import chimeUrl from '../assets/alert.wav?no-inline';
import { AlertSound, type TSoundState } from './alertSound';

let sound: AlertSound | null = null;

function getSound(): AlertSound {
  sound ??= new AlertSound({
    createContext: () => (typeof AudioContext === 'undefined' ? null : new AudioContext()),
    loadChime: () => fetch(chimeUrl).then((r) => r.arrayBuffer()),
    storage: globalThis.localStorage ?? null,
  });
  return sound;
}

/** The sound's state (re-rendering on change) and its actions. */
export function useAlertSound(): {
  state: TSoundState;
  play: () => Promise<boolean>;
  enable: () => Promise<boolean>;
  setMuted: (muted: boolean) => void;
} {
  const s = getSound();
  const state = useSyncExternalStore(
    (l) => s.onChange(l),
    () => s.state,
  );
  return { state, play: () => s.play(), enable: () => s.enable(), setMuted: (m) => s.setMuted(m) };
}
