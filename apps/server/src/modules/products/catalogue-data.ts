/**
 * The platform's hardware-module catalogue (spec §7 "template tangramProducts and sensors"): the modules a project
 * can be built on and the telemetry keys each reports. `model_number` is the module's 4-hex part of a Tangram ID.
 * Edit here; {@link ensureCatalogue} upserts it on every start.
 */

/** One template sensor: telemetry `key`, display name, unit and how many values (v1..v3) a point carries. */
export interface TCatalogueSensor {
  key: string;
  name: string;
  unit: string;
  valueCount: 1 | 2 | 3;
}

/** One hardware module of the catalogue. */
export interface TCatalogueModule {
  modelNumber: string;
  name: string;
  description: string;
  sensors: TCatalogueSensor[];
}

const temperature: TCatalogueSensor = { key: 'temperature', name: 'Temperature', unit: '°C', valueCount: 1 };
const humidity: TCatalogueSensor = { key: 'humidity', name: 'Relative humidity', unit: '%', valueCount: 1 };
const vibration: TCatalogueSensor = { key: 'vibration', name: 'Vibration velocity (x, y, z)', unit: 'mm/s', valueCount: 3 };
const current: TCatalogueSensor = { key: 'current', name: 'Current', unit: 'A', valueCount: 1 };

/** The model number of the module the demo project uses (it reports what the simulator publishes). */
export const MOTOR_ENV_MODEL_NUMBER = '1A05';

/** The catalogue, in display order. */
export const CATALOGUE: readonly TCatalogueModule[] = [
  {
    modelNumber: '1A01',
    name: 'TE-210 Environment Module',
    description: 'Indoor climate: temperature and relative humidity (SHT4x class sensor).',
    sensors: [temperature, humidity],
  },
  {
    modelNumber: '1A02',
    name: 'MV-320 Motor Monitor',
    description: 'Induction-motor condition: tri-axial vibration velocity (ISO 10816), phase current, housing temperature.',
    sensors: [vibration, current, { ...temperature, name: 'Housing temperature' }],
  },
  {
    modelNumber: '1A03',
    name: 'PM-3P Power Meter',
    description: 'Three-phase power meter: line voltages, phase currents, active power and energy.',
    sensors: [
      { key: 'voltage', name: 'Line voltage (L1, L2, L3)', unit: 'V', valueCount: 3 },
      { key: 'current', name: 'Phase current (L1, L2, L3)', unit: 'A', valueCount: 3 },
      { key: 'power', name: 'Active power', unit: 'kW', valueCount: 1 },
      { key: 'energy', name: 'Active energy', unit: 'kWh', valueCount: 1 },
    ],
  },
  {
    modelNumber: '1A04',
    name: 'AQ-110 Air Quality Module',
    description: 'Air quality: PM2.5, CO2 and TVOC.',
    sensors: [
      { key: 'pm25', name: 'PM2.5', unit: 'µg/m³', valueCount: 1 },
      { key: 'co2', name: 'CO2', unit: 'ppm', valueCount: 1 },
      { key: 'tvoc', name: 'TVOC', unit: 'ppb', valueCount: 1 },
    ],
  },
  {
    modelNumber: MOTOR_ENV_MODEL_NUMBER,
    name: 'ME-500 Motor & Environment Gateway',
    description: 'Motor monitor with an ambient sensor: ambient temperature and humidity, vibration, current.',
    sensors: [temperature, humidity, vibration, current],
  },
  {
    modelNumber: '1A06',
    name: 'WL-40 Tank Level & Flow Module',
    description: 'Water tank level, outlet flow and line pressure.',
    sensors: [
      { key: 'level', name: 'Tank level', unit: 'm', valueCount: 1 },
      { key: 'flow', name: 'Flow', unit: 'm³/h', valueCount: 1 },
      { key: 'pressure', name: 'Line pressure', unit: 'bar', valueCount: 1 },
    ],
  },
];
