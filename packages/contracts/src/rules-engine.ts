/**
 * Constants of rule evaluation (docs/rules.md): when an alert counts as flapping. The level-trigger
 * re-notify interval is a project setting (projects.ts `RULE_RENOTIFY_*`).
 */

/**
 * Flapping: when the same (rule, device) has opened this many alerts within {@link ALERT_FLAP_WINDOW_S}, the newest
 * one is marked `flapping` and nobody is notified of it until the rule has stayed quiet (opened nothing) for the
 * window.
 */
export const ALERT_FLAP_OPENS = 3;
/** The flapping window, in seconds (10 minutes). */
export const ALERT_FLAP_WINDOW_S = 600;
