import { faultSuite } from './fault-matrix';
import { networkCases } from './network-faults';

// Every resource meets every fault after a client-side navigation, then offline and a slow network
// (fault-matrix.ts, network-faults.ts).
faultSuite('after navigation');
networkCases();
