/**
 * The machine classes of ISO 10816-3 (mechanical vibration — evaluation by measurements on non-rotating parts,
 * industrial machines above 15 kW): the group by rated power and the support by foundation stiffness. A machine
 * instance carries one; the motor-health zones of its devices use its boundaries (docs/decisions/motor-health.md).
 */

/**
 * `group1_*`: large machines, 300 kW – 50 MW; `group2_*`: medium machines, 15 – 300 kW. `rigid` / `flexible`: the
 * foundation's lowest natural frequency above / below the main excitation frequency (ISO 10816-3 §3.3).
 */
export const MACHINE_CLASSES = ['group1_rigid', 'group1_flexible', 'group2_rigid', 'group2_flexible'] as const;
/** One of {@link MACHINE_CLASSES}. */
export type TMachineClass = (typeof MACHINE_CLASSES)[number];

/** The class assumed for a device not bound to a machine and for a new machine: medium machine, rigid foundation. */
export const DEFAULT_MACHINE_CLASS: TMachineClass = 'group2_rigid';
