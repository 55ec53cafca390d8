// Writes alert.wav beside this script: the new-alert chime of the alerts dashboard (docs/decisions/alerts.md
// "Sound"), two short sine tones (880 Hz, then 1320 Hz) with soft edges, 16-bit PCM mono at 22 050 Hz (~13 KB, so
// Vite emits it as a file rather than inlining a data: URL the CSP's media rule would refuse).
// Run: node apps/web/src/features/alerts/assets/make-alert-sound.mjs
import { writeFileSync } from 'node:fs';

const RATE = 22_050;
const TONES = [
  { hz: 880, s: 0.15 },
  { hz: 1320, s: 0.15 },
];
const FADE_S = 0.01;
const VOLUME = 0.5;

const samples = [];
for (const { hz, s } of TONES) {
  const n = Math.round(s * RATE);
  for (let i = 0; i < n; i += 1) {
    const t = i / RATE;
    const edge = Math.min(1, t / FADE_S, (s - t) / FADE_S);
    samples.push(Math.round(Math.sin(2 * Math.PI * hz * t) * edge * VOLUME * 32_767));
  }
}

const data = Buffer.alloc(samples.length * 2);
for (const [i, v] of samples.entries()) data.writeInt16LE(v, i * 2);
const header = Buffer.alloc(44);
header.write('RIFF', 0);
header.writeUInt32LE(36 + data.length, 4);
header.write('WAVE', 8);
header.write('fmt ', 12);
header.writeUInt32LE(16, 16); // fmt chunk size
header.writeUInt16LE(1, 20); // PCM
header.writeUInt16LE(1, 22); // mono
header.writeUInt32LE(RATE, 24);
header.writeUInt32LE(RATE * 2, 28); // byte rate
header.writeUInt16LE(2, 32); // block align
header.writeUInt16LE(16, 34); // bits per sample
header.write('data', 36);
header.writeUInt32LE(data.length, 40);
writeFileSync(new URL('./alert.wav', import.meta.url), Buffer.concat([header, data]));
