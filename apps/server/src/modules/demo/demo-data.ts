/** What the demo loads. Values only; seed-demo.ts writes them. */
import type { TAccountLevel, TFlowGraphInput, TSimpleRuleInput, TStatusGroup, TWidgetInput } from '@tessera/contracts';

/** The password of every demo account (meets the §5 password rule). */
export const DEMO_PASSWORD = 'Demo#2026';

/** The demo logins, printed at start. The admin has a platform tenant of its own; vendor and user share one. */
export const DEMO_ACCOUNTS: readonly { email: string; level: TAccountLevel; name: string }[] = [
  { email: 'admin@example.com', level: 'admin', name: 'Platform Admin' },
  { email: 'vendor@example.com', level: 'vendor', name: 'Demo Vendor' },
  { email: 'user@example.com', level: 'user', name: 'Demo User' },
];
export const DEMO_VENDOR_EMAIL = 'vendor@example.com';
export const DEMO_USER_EMAIL = 'user@example.com';
export const DEMO_TENANT_NAME = 'Demo Vendor';
export const PLATFORM_TENANT_NAME = 'Tessera Platform';

export const DEMO_CLASS_NAME = 'Rotating machinery';
export const DEMO_PRODUCT = { name: 'Smart Motor Drive', model: 'SMD-750', number: 'SMD-750-TW', description: 'Demo product' };
export const DEMO_PROJECT = { name: 'Demo Factory Line', description: 'Five motor drives on the demo line' };

/** A 40-bit status word layout (§4: slices counted from the right). */
export const DEMO_STATUS_GROUPS: TStatusGroup[] = [
  {
    name: 'Run state',
    index: 0,
    bytesLength: 2,
    values: [
      { value: 0, label: 'stopped' },
      { value: 1, label: 'running' },
      { value: 2, label: 'fault' },
    ],
  },
  {
    name: 'Door',
    index: 2,
    bytesLength: 1,
    values: [
      { value: 0, label: 'closed' },
      { value: 1, label: 'open' },
    ],
  },
  {
    name: 'Mode',
    index: 8,
    bytesLength: 3,
    values: [
      { value: 0, label: 'auto' },
      { value: 1, label: 'manual' },
      { value: 2, label: 'maintenance' },
      { value: 3, label: 'eco' },
    ],
  },
  {
    name: 'Alarm level',
    index: 16,
    bytesLength: 2,
    values: [
      { value: 0, label: 'none' },
      { value: 1, label: 'warning' },
      { value: 2, label: 'alarm' },
    ],
  },
];

/** The five demo devices (serial numbers are 12-hex, as stored). The user is authorised for the first two. */
export const DEMO_DEVICES: readonly { serial: string; name: string }[] = [
  { serial: 'DE0000000001', name: 'Press motor A' },
  { serial: 'DE0000000002', name: 'Press motor B' },
  { serial: 'DE0000000003', name: 'Conveyor drive' },
  { serial: 'DE0000000004', name: 'Cooling fan' },
  { serial: 'DE0000000005', name: 'Compressor' },
];
export const DEMO_USER_DEVICE_COUNT = 2;
/**
 * The demo machine configure (docs/decisions/machines.md): an air compressor whose motor and compressor head are
 * each watched by a device of the demo product, with the demo project's keys that matter for each part.
 */
export const DEMO_MACHINE_CONFIGURE = {
  name: 'Air compressor',
  description: 'Motor-driven screw compressor: drive current and vibration, head temperature and humidity',
  components: [
    { name: 'Motor', keys: ['current', 'vibration'] },
    { name: 'Compressor head', keys: ['temperature', 'humidity'] },
  ],
} as const;
/** The demo machine: one air compressor on the demo line, its components bound to the first demo devices in order. */
export const DEMO_MACHINE = {
  name: 'Compressor #1',
  serial_number: 'AC-2026-0001',
  location: 'Demo Factory Line, bay 3',
  machine_class: 'group2_rigid',
} as const;
/** The message of the demo user's (allowed) requests for its devices. */
export const DEMO_REQUEST_MESSAGE = 'For the morning shift';

/**
 * The demo project's simple rule: the simulator's motor current swings 1.0–2.0 A over a 10-minute duty
 * cycle, so every demo device opens an early warning for about two minutes of each cycle and clears it again —
 * alerts/dashboard has something live to show within minutes of `npm start`. Held 30 s both ways, so the ±0.05 A
 * noise around the threshold opens one alert per cycle, not one per crossing (docs/rules.md "Hysteresis").
 */
export const DEMO_RULE = {
  name: 'Motor current high',
  enabled: true,
  key: 'current',
  slot: 'v1',
  op: 'gt',
  threshold: 1.9,
  value: null,
  duration_s: 30,
  level: 'early_warning',
  message: 'Motor current above 1.9 A',
  notify_email: false,
  notify_line: false,
} satisfies TSimpleRuleInput;

const at = (x: number, y: number) => ({ x, y });

/**
 * The demo tenant's platform rules (docs/platform-rules.md): "Line overheating" — any demo device's temperature
 * above 25.5 °C while its 10-minute average is above 25 °C (the simulator's afternoon peak) raises an alert and
 * notifies the project's recipients by email and LINE; "Nightly device check" — at 02:00 Taipei time every night,
 * getDeviceInfo to all five demo devices, five at a time.
 */
export function demoPlatformRules(projectId: number): { name: string; description: string; graph: TFlowGraphInput }[] {
  return [
    {
      name: 'Line overheating',
      description: 'Temperature high and staying high on the demo line',
      graph: {
        nodes: [
          {
            id: 'n1',
            type: 'start',
            position: at(200, 0),
            data: { trigger: { kind: 'telemetry', scope: { kind: 'projects', ids: [projectId] }, keys: ['temperature'] } },
          },
          {
            id: 'n2',
            type: 'aggregation',
            position: at(200, 100),
            data: { name: 'avg10', fn: 'avg', key: 'temperature', amount: 10, unit: 'minute' },
          },
          { id: 'n3', type: 'condition', position: at(200, 200), data: { expression: 'value > 25.5 && avg10 > 25' } },
          { id: 'n4', type: 'conditionResult', position: at(200, 300), data: { result: true } },
          {
            id: 'n5',
            type: 'alert',
            position: at(60, 400),
            data: { level: 'alert', message: '{{tangramId}} overheating: {{value}} °C (10-min average {{avg10}} °C)' },
          },
          {
            id: 'n6',
            type: 'notification',
            position: at(340, 400),
            data: { email: true, line: true, message: 'Line overheating on {{tangramId}}: {{value}} °C' },
          },
        ],
        edges: [
          { id: 'e1', source: 'n1', target: 'n2' },
          { id: 'e2', source: 'n2', target: 'n3' },
          { id: 'e3', source: 'n3', target: 'n4' },
          { id: 'e4', source: 'n4', target: 'n5' },
          { id: 'e5', source: 'n5', target: 'n6' },
        ],
      },
    },
    {
      name: 'Nightly device check',
      description: 'Asks every demo device for its firmware and signal at 02:00',
      graph: {
        nodes: [
          {
            id: 'n1',
            type: 'start',
            position: at(200, 0),
            data: { trigger: { kind: 'schedule', cron: '0 2 * * *', time_zone: 'Asia/Taipei' } },
          },
          {
            id: 'n2',
            type: 'deviceParallelControl',
            position: at(200, 120),
            data: {
              scope: { kind: 'projects', ids: [projectId] },
              command: { name: 'getDeviceInfo' },
              concurrency: 5,
              result_variable: 'allAnswered',
            },
          },
        ],
        edges: [{ id: 'e1', source: 'n1', target: 'n2' }],
      },
    },
  ];
}

/** The name of the demo accounts' first dashboard page. */
export const DEMO_DASHBOARD_NAME = 'Factory line';

/**
 * The first dashboard page of a demo account over `tangramIds` (the devices it may see, the first one featured): the
 * first device's temperature and a gauge of its motor current (amber from the demo rule's 1.9 A), its status, the
 * account's alerts, a week of every device's temperature (the backfilled history) and a table of the devices with
 * their current. Layout on the 12-column grid.
 */
export function demoDashboardWidgets(tangramIds: readonly string[]): TWidgetInput[] {
  const [first] = tangramIds;
  const widget = (type: TWidgetInput['type'], title: string, parameter: object, layout: TWidgetInput['layout']): TWidgetInput => ({
    new: true,
    type,
    title,
    parameter: JSON.stringify(parameter),
    layout,
  });
  return [
    widget('latest', 'Temperature', { tangram_id: first, key: 'temperature' }, { x: 0, y: 0, w: 3, h: 3 }),
    widget(
      'gauge',
      'Motor current',
      { tangram_id: first, key: 'current', min: 0, max: 3, thresholds: [{ value: 1.9, color: '#faad14' }] },
      { x: 3, y: 0, w: 3, h: 5 },
    ),
    widget('status', 'Status', { tangram_id: first }, { x: 6, y: 0, w: 3, h: 5 }),
    widget('alerts', 'Latest alerts', { limit: 10 }, { x: 9, y: 0, w: 3, h: 9 }),
    widget(
      'line',
      'Temperature, last 7 days',
      { series: tangramIds.map((id) => ({ tangram_id: id, key: 'temperature' })), fn: 'avg', range_ms: 7 * 86_400_000, refresh_min: 30 },
      { x: 0, y: 5, w: 9, h: 8 },
    ),
    widget('devices', 'Devices', { tangram_ids: [...tangramIds], key: 'current' }, { x: 0, y: 13, w: 12, h: 6 }),
  ];
}
