// Prints the gzip size of every JS file a cold /dashboard loads (run after `vite build`): the same
// list the bundle-budget test checks against its budget (build/cold-load.ts).
import path from 'node:path';
import { COLD_DASHBOARD_BUDGET_GZIP, coldDashboardChunks, gzipSize, readManifest } from './cold-load';

const dist = path.resolve(import.meta.dirname, '../dist');
let total = 0;
for (const file of coldDashboardChunks(readManifest(dist))) {
  const size = gzipSize(dist, file);
  total += size;
  console.log(`${(size / 1024).toFixed(1).padStart(8)} KB  ${file}`);
}
console.log(
  `${(total / 1024).toFixed(1).padStart(8)} KB  cold /dashboard JS, gzip (budget ${(COLD_DASHBOARD_BUDGET_GZIP / 1024).toFixed(0)} KB)`,
);
