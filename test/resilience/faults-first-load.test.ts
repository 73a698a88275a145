import { faultSuite } from './fault-matrix';

// Every resource meets every fault on a prerendered first load (fault-matrix.ts).
faultSuite('first load');
