/**
 * Business constants and limits of the console spec (§5 validation rules, §9 business constants).
 * Imported by server, web and simulator; never retyped elsewhere.
 */

/** The largest id: a PostgreSQL `integer` (serial) column holds 2^31 − 1. */
export const ID_MAX = 2_147_483_647;

/** §9: HTTP request timeout of the console's client, in milliseconds. */
export const REQUEST_TIMEOUT_MS = 200_000;
/** §8/§9: retries after a token refresh for UAE0004/AUTHZ-E001. */
export const MAX_RETRIES = 3;
/** §9: delay between those retries, in milliseconds. */
export const RETRY_DELAY_MS = 1_000;
/** §9: chunk (code-split route) load timeout, in milliseconds. */
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;
/** §5/§9: sensing, upload and save periods may not be below this (0 disables), in milliseconds. */
export const FREQUENCY_FLOOR_MS = 1_000;
/** §9: default batch size of a sensor. */
export const DEFAULT_BATCH = 1_000;
/** §5/§9: largest product image upload, in bytes. */
export const MAX_IMAGE_BYTES = 2 * 1024 * 1024;
/**
 * The largest AI model revision file, in bytes (200 MiB; docs/decisions/ai.md "Size limit: 200 MiB"): edge models (TFLite, ONNX,
 * TensorRT, OpenVINO for a device's NPU or GPU) are a few to a hundred-odd MB; a larger file is no model a device of
 * the catalogue could load.
 */
export const MAX_MODEL_BYTES = 200 * 1024 * 1024;
/** §5/§9: history range for raw history charts, in days (the short reading of "31 or 90"). */
export const HISTORY_RANGE_DAYS = 31;
/** §5/§9: history range for aggregated (rolled-up) queries and downloads, in days (the long reading). */
export const HISTORY_RANGE_MAX_DAYS = 90;
/** One day in milliseconds. */
export const DAY_MS = 86_400_000;
/** §5/§9: analytics compares at least one and at most this many devices. */
export const MAX_ANALYTICS_DEVICES = 5;
/** §5/§9: sensor bus address range (inclusive). */
export const SENSOR_ADDRESS_MIN = 0;
export const SENSOR_ADDRESS_MAX = 255;
/** §4/§9: the status word is this many bits. */
export const STATUS_WORD_BITS = 40;
/** §5/§9: the largest value of one status line. */
export const STATUS_VALUE_MAX = 65_535;
/** §5/§9: at most this many status lines (groups) per project. */
export const MAX_STATUS_LINES = 16;
/** §5/§9: status name length. */
export const STATUS_NAME_MAX = 36;
/** §5: easy import takes at most this many lines. */
export const EASY_IMPORT_MAX_LINES = 20;
/** §5/§9: password length bounds (inclusive). */
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 16;
/** §5/§9: API token name length. */
export const TOKEN_NAME_MAX = 32;
/** §9: the hardware-module catalogue (template tangramProducts) page size. */
export const TANGRAM_PRODUCTS_PAGE_SIZE = 25;
/** §7/§9: MQTT keepalive of the live channel, in seconds. */
export const MQTT_KEEPALIVE_S = 30;
/** §9: dashboard refresh choices, in minutes. */
export const DASHBOARD_REFRESH_MIN = [5, 10, 30] as const;

/**
 * §5 names: "maximum 20, 32 or 64 depending on field (which field uses which: not shown)".
 * Decision (docs/decisions.md): short labels 20 (device nickname), entity names 32 (product, project, class,
 * device name), free descriptions 64 is too short so they get 500; model 32; number 32.
 */
export const NAME_SHORT_MAX = 20;
export const NAME_MAX = 32;
export const NAME_LONG_MAX = 64;
export const MODEL_MAX = 32;
export const NUMBER_MAX = 32;
export const DESCRIPTION_MAX = 500;
export const EMAIL_MAX = 254;

/** Default and largest page size of list endpoints. */
export const DEFAULT_PAGE_LIMIT = 20;
export const MAX_PAGE_LIMIT = 200;
/** The largest page number a list accepts (an offset beyond it is no list anyone pages through). */
export const MAX_PAGE = 1_000_000;

/** Bulk device registration takes at most this many serial numbers in one call. */
export const MAX_BULK_DEVICES = 1_000;

/** A telemetry point carries one to three values (§3 live messages: "up to 3 values"). */
export const MAX_TELEMETRY_VALUES = 3;
/** A telemetry key is 1–32 characters of [A-Za-z0-9_.-]. */
export const TELEMETRY_KEY_MAX = 32;
/**
 * Bounds of a non-numeric telemetry value (docs/decisions/telemetry.md "Values that are not numbers"): a string
 * value of at most TELEMETRY_STRING_MAX_CHARS UTF-16 code units; a JSON value (object or array) of at most
 * TELEMETRY_JSON_MAX_BYTES bytes as compact JSON and TELEMETRY_JSON_MAX_DEPTH levels of nesting (`{}` is 1 deep).
 * Over them a point is refused as `value_too_large`.
 */
export const TELEMETRY_STRING_MAX_CHARS = 1_024;
export const TELEMETRY_JSON_MAX_BYTES = 4_096;
export const TELEMETRY_JSON_MAX_DEPTH = 8;
/**
 * Keys no sensor declares that a project accepting undeclared keys holds at most on offer (docs/decisions/telemetry.md
 * "Undeclared keys"): past it a new key is refused as `unknown_key`, so a device that invents keys (a counter or a
 * time in the key) cannot grow the list without bound. Discarded and declared keys do not count.
 */
export const UNDECLARED_KEYS_MAX = 50;
/** One MQTT telemetry publish may carry at most this many points (array form). */
export const MAX_POINTS_PER_MESSAGE = 1_000;
/**
 * The largest MQTT packet the broker reads from a logged-in client, in bytes (docs/protocol.md "Limits and bad
 * payloads"): MAX_POINTS_PER_MESSAGE points of at most MAX_POINT_BYTES each (a 32-character key, a 16-digit ts and
 * three doubles take ~150 bytes; the rest is room for whitespace) plus 1 KiB for the topic and header.
 */
export const MAX_POINT_BYTES = 256;
export const MQTT_MAX_PACKET_BYTES = MAX_POINTS_PER_MESSAGE * MAX_POINT_BYTES + 1024;
/** The largest MQTT packet before login (the CONNECT: client id, credentials with a JWT, a will), in bytes. */
export const MQTT_MAX_PACKET_BYTES_BEFORE_LOGIN = 16 * 1024;
/** How long a new MQTT connection may take to send its CONNECT before it is closed, in milliseconds. */
export const MQTT_CONNECT_TIMEOUT_MS = 10_000;
/**
 * Per-device ingest rate limit: points per second sustained (token bucket refill) and burst. The bucket refills with
 * the device's own clock (the points' ts) or the server's, whichever advanced more (docs/protocol.md "Limits").
 */
export const DEVICE_RATE_POINTS_PER_S = 1_000;
export const DEVICE_RATE_BURST_POINTS = 5_000;
/** The earliest device timestamp ingest accepts: 2000-01-01T00:00:00Z, in epoch milliseconds. */
export const DEVICE_TS_MIN_MS = 946_684_800_000;
/**
 * How far ahead of the server's clock a device timestamp may be, in milliseconds (ten minutes): a clock a few minutes
 * fast is normal, one further ahead is wrong (docs/protocol.md "Limits and bad payloads"). Even inside the window a
 * point ahead of its arrival never hides the points after it from "latest" (docs/decisions/telemetry.md).
 */
export const DEVICE_TS_MAX_AHEAD_MS = 10 * 60_000;

/**
 * Wrong passwords are slowed down, never locked out (docs/decisions/auth.md "Wrong passwords"; OWASP ASVS 4.0.3
 * 2.2.1). Per (email, client address): the first LOGIN_FREE_FAILURES wrong passwords answer at once; after that the
 * pair must wait 1 s, 2 s, 4 s, … (doubling, at most LOGIN_THROTTLE_MAX_MS) between attempts. Per email, from every
 * address together: after LOGIN_ACCOUNT_FREE_FAILURES wrong passwords the email has a wait of its own, doubling the
 * same way, which only addresses that have failed for it must also wait; an address that has not failed still gets
 * its attempt, so the owner's right password logs in. Failures are forgotten LOGIN_THROTTLE_MEMORY_MS after the last
 * one. clean-data passwords have throttles of their own.
 */
export const LOGIN_FREE_FAILURES = 3;
export const LOGIN_ACCOUNT_FREE_FAILURES = 10;
export const LOGIN_THROTTLE_BASE_MS = 1_000;
export const LOGIN_THROTTLE_MAX_MS = 15 * 60_000;
export const LOGIN_THROTTLE_MEMORY_MS = 24 * 3600_000;
/** Access-token lifetime (JWT `exp`), in seconds; refresh-token lifetime, in seconds. */
export const ACCESS_TOKEN_TTL_S = 15 * 60;
export const REFRESH_TOKEN_TTL_S = 30 * 24 * 3600;
/** Email verification / reset code: 6 digits, valid this long, in milliseconds. */
export const VERIFY_CODE_TTL_MS = 10 * 60_000;
export const VERIFY_CODE_MAX_ATTEMPTS = 5;

/** History queries: the default and largest chart width in points; responses hold at most ~2× the width. */
export const DEFAULT_CHART_WIDTH = 600;
export const MAX_CHART_WIDTH = 5_000;
/** The raw `telemetries/value/timeseries` endpoint returns at most this many rows. */
export const MAX_RAW_ROWS = 100_000;
/** Rollup bucket sizes kept by ingest, in milliseconds. */
export const ROLLUP_BUCKETS_MS = [60_000, 3_600_000] as const;
