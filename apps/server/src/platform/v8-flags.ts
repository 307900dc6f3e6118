import { setFlagsFromString } from 'node:v8';

/**
 * V8 settings of a Wren server process, applied as it starts (main.ts imports this first).
 *
 * No allocation-site pretenuring. V8 learns which allocation sites make objects that outlive a
 * young-generation GC and then allocates their objects straight in the old generation. Query
 * results set it off: the rows of pg's result parser (one allocation site for every query) were
 * pretenured, so each page's rows lived in the old generation until the next full GC, and the
 * young strings and Dates they point to were kept alive through every scavenge by those dead rows
 * and promoted. bench:log, 100k messages: 1.31 MB promoted per scavenge with it, 0.47 MB without;
 * 10M messages: server GC during 1,000 first pages 161 ms (42 pauses, 3 over 10 ms) with it, 76 ms
 * (114 pauses, none over 10 ms) without. A sampling heap profile of the objects that survived
 * young GCs and died in a full one named pg's row parsing for 162 of 167 MB.
 */
setFlagsFromString('--no-allocation-site-pretenuring');
