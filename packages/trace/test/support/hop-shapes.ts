// Hand-built rollouts, one per shape of hop the analyses must agree on (the time split, the
// attribution, the sums of `why --all`).
import { bare, MODEL, RESOURCES } from './fixtures.js';
import type { FixtureSpan } from './fixtures.js';
import { clientPhaseAttributes as phases } from './phased-rollouts.js';

const rid = (id: string) => ({ 'nemo.gym.rollout.id': id });

// Phases with a callee whose clock runs early or late, a retried request, no
// phases, no SERVER span, parallel calls, CLIENT calls out of the model server, a zero-length one.
export const HOP_SHAPES: Record<string, FixtureSpan[]> = {
  phases: [
    bare('gym.rollout', '0000000000000001', null, 0, 100, { attributes: rid('a') }),
    bare('HTTP POST', '0000000000000002', '0000000000000001', 10, 90, { kind: 'CLIENT', attributes: phases(12, 3, 16) }),
    bare('POST /v1/responses', '0000000000000003', '0000000000000002', 30, 80, { kind: 'SERVER', service: MODEL }),
  ],
  'callee clock early and late': [
    bare('gym.rollout', '0000000000000001', null, 0, 100, { attributes: rid('b') }),
    bare('HTTP POST', '0000000000000002', '0000000000000001', 10, 90, { kind: 'CLIENT', attributes: phases(20, 0, 21) }),
    bare('POST /v1/responses', '0000000000000003', '0000000000000002', 22, 95, { kind: 'SERVER', service: MODEL }),
    bare('HTTP POST', '0000000000000004', '0000000000000001', 91, 99, { kind: 'CLIENT', attributes: phases(1, 0, 1.5) }),
    bare('POST /verify', '0000000000000005', '0000000000000004', 90, 99.5, { kind: 'SERVER', service: RESOURCES }),
  ],
  retried: [
    bare('gym.rollout', '0000000000000001', null, 0, 100, { attributes: rid('c') }),
    bare('HTTP POST', '0000000000000002', '0000000000000001', 0, 100, { kind: 'CLIENT', attributes: phases(2, 1, 63, { 'http.request.resend_count': 1 }) }),
    bare('POST /verify', '0000000000000003', '0000000000000002', 5, 30, { kind: 'SERVER', service: RESOURCES, status: { code: 'ERROR', message: 'HTTP 503' } }),
    bare('POST /verify', '0000000000000004', '0000000000000002', 64, 98, { kind: 'SERVER', service: RESOURCES }),
  ],
  'no phases, no server, parallel calls': [
    bare('gym.rollout', '0000000000000001', null, 0, 100, { attributes: rid('d') }),
    bare('HTTP POST', '0000000000000002', '0000000000000001', 0, 60, { kind: 'CLIENT' }),
    bare('POST /search', '0000000000000003', '0000000000000002', 7, 52, { kind: 'SERVER', service: RESOURCES }),
    bare('HTTP POST', '0000000000000004', '0000000000000001', 0, 30, { kind: 'CLIENT' }),
    bare('POST /lookup', '0000000000000005', '0000000000000004', 0, 30, { kind: 'SERVER', service: RESOURCES }),
    bare('HTTP GET', '0000000000000006', '0000000000000001', 60, 100, { kind: 'CLIENT', attributes: phases(3, 2, 6) }),
  ],
  'calls out of the model server': [
    bare('gym.rollout', '0000000000000001', null, 0, 100, { attributes: rid('e') }),
    bare('HTTP POST', '0000000000000002', '0000000000000001', 5, 95, { kind: 'CLIENT' }),
    bare('POST /v1/responses', '0000000000000003', '0000000000000002', 6, 94, { kind: 'SERVER', service: MODEL }),
    bare('HTTP POST', '0000000000000004', '0000000000000003', 10, 80, { kind: 'CLIENT', service: MODEL }),
    bare('HTTP POST', '0000000000000005', '0000000000000003', 81, 90, { kind: 'CLIENT', service: MODEL, attributes: phases(1, 1, 2.5) }),
  ],
  'zero length': [bare('gym.rollout', '0000000000000001', null, 50, 50, { attributes: rid('f') })],
};
