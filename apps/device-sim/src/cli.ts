/**
 * `npm run sim -- --url mqtt://localhost:1883 --device <TANGRAMID>:<SECRET> ... --rate 1`, or
 * `npm run sim -- --project <id> --devices 20 --api http://localhost:8080 --token <vendor token>` to register
 * N devices through the API first. Runs until Ctrl-C; prints counters every 10 s. With `--ble-code` it prints each
 * device's current BLE proof code (docs/decisions/authorisation.md) and exits. `--model-fault` makes every device
 * corrupt its AI model downloads (docs/protocol.md "AI models").
 */
import { parseArgs } from 'node:util';
import { bleProof } from './ble-proof.js';
import { MODEL_FAULTS, startSimulator, type TModelFault, type TSimDevice } from './index.js';
import { registerDevices } from './register.js';

const USAGE = `usage:
  sim --url mqtt://localhost:1883 --device <TANGRAMID>:<SECRET> [--device ...] [--rate 1] [--status-period 10000] [--qos 1]
  sim --protocol thingsboard --device <TANGRAMID>:<ACCESS_TOKEN> [--device ...] [--rate 1]   (ThingsBoard's MQTT API: telemetry, client attributes, RPC)
  sim --protocol thingsboard --gateway --devices N --device <TANGRAMID>:<GATEWAY_TOKEN> [--name-prefix sim-] [--rate 1]
                                              (ThingsBoard's gateway API: N devices named sim-1 … sim-N behind each gateway)
  sim --project <id> --devices 20 --api http://localhost:8080 --token <vendor token> [--url ...] [--rate 1]
  sim --device <TANGRAMID>:<SECRET> [--device ...] --ble-code
options:
  --model-fault corrupt-once|corrupt-always   every device corrupts its AI model downloads (reported as
                                              "sha256 mismatch"): only its first one, or all of them
Each device connects with its Tangram ID as MQTT client id: the broker takes only client ids that start with the
device's Tangram ID (docs/protocol.md "Client ids"), so a simulated device takes over the session of the real one.`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      url: { type: 'string', default: 'mqtt://localhost:1883' },
      device: { type: 'string', multiple: true, default: [] },
      rate: { type: 'string', default: '1' },
      'status-period': { type: 'string', default: '10000' },
      qos: { type: 'string', default: '1' },
      project: { type: 'string' },
      devices: { type: 'string', default: '1' },
      api: { type: 'string', default: 'http://localhost:8080' },
      token: { type: 'string' },
      'ble-code': { type: 'boolean', default: false },
      'model-fault': { type: 'string' },
      protocol: { type: 'string', default: 'native' },
      gateway: { type: 'boolean', default: false },
      'name-prefix': { type: 'string', default: 'sim-' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) return void console.log(USAGE);
  const modelFault = parseModelFault(values['model-fault']);
  let devices: TSimDevice[] = values.device.map((d) => {
    const [tangramId, secret] = d.split(':');
    if (!tangramId || !secret) throw new Error(`--device takes <TANGRAMID>:<SECRET>, got "${d}"`);
    return { tangramId, secret };
  });
  if (values['ble-code']) {
    for (const d of devices) console.log(`${d.tangramId} BLE code ${bleProof(d)}`);
    return;
  }
  if (values.gateway && values.protocol !== 'thingsboard') throw new Error('--gateway needs --protocol thingsboard');
  if (values.project && !values.gateway) {
    if (!values.token) throw new Error('--project needs --token (a vendor access token)');
    const registered = await registerDevices({
      api: values.api,
      token: values.token,
      projectId: Number(values.project),
      count: Number(values.devices),
    });
    for (const d of registered) console.log(`registered ${d.tangramId}:${d.secret}`);
    devices = devices.concat(registered);
  }
  if (devices.length === 0) throw new Error(`no devices\n${USAGE}`);
  if (values.protocol !== 'native' && values.protocol !== 'thingsboard') {
    throw new Error(`--protocol takes native or thingsboard, got "${values.protocol}"`);
  }
  const protocol = values.protocol;
  devices = devices.map((d) => ({ ...d, modelFault, protocol }));
  const sim = await startSimulator({
    url: values.url,
    devices,
    rateHz: Number(values.rate),
    statusPeriodMs: Number(values['status-period']),
    qos: values.qos === '0' ? 0 : 1,
    gateway: values.gateway ? { devices: Number(values.devices), namePrefix: values['name-prefix'] } : undefined,
  });
  const what = values.gateway ? `gateway(s), ${values.devices} device(s) behind each,` : 'device(s)';
  console.log(`simulating ${devices.length} ${what} on ${values.url}; Ctrl-C stops`);
  const timer = setInterval(() => console.log(JSON.stringify(sim.stats())), 10_000);
  process.once('SIGINT', () => {
    clearInterval(timer);
    sim.stop().then(() => process.exit(0));
  });
}

function parseModelFault(value: string | undefined): TModelFault | undefined {
  if (value === undefined) return undefined;
  const fault = MODEL_FAULTS.find((f) => f === value);
  if (!fault) throw new Error(`--model-fault takes ${MODEL_FAULTS.join(' or ')}, got "${value}"`);
  return fault;
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
