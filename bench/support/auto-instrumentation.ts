// A server-process preload for the throughput bench: the OpenTelemetry auto-instrumentations for
// node:http and undici on the same SDK pipeline gym uses (lens setup, batch processor, console
// JSON lines appended to the server's log file) — what a user would get by instrumenting gym from
// the outside instead of with its own spans. Loaded with GYM_SERVER_NODE_FLAGS='--import <this>'.
import { createWriteStream } from 'node:fs';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { NemoLensConfig, setupTelemetry } from '@gym/lens/setup';

const file = process.env['GYM_TELEMETRY_CONSOLE_FILE'];
const output = file === undefined ? process.stdout : createWriteStream(file, { flags: 'a' });
await setupTelemetry(new NemoLensConfig({ enabled: true, exporter: 'console', serviceName: `auto/${process.env['NEMO_GYM_CONFIG_PATH'] ?? 'server'}` }), { output });
registerInstrumentations({ instrumentations: [new HttpInstrumentation(), new UndiciInstrumentation()] });
