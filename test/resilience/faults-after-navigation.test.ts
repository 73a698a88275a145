import { faultSuite } from './fault-matrix';

// Every resource meets every fault after a client-side navigation, then offline and a slow network
// (fault-matrix.ts).
faultSuite('after navigation');
