/**
 * What the messages module offers receipt processing (modules/dlr), in one place: the dependency
 * runs one way, dlr → messages, and dlr touches messages and their parts only through these.
 */
export { insertEvents as recordEvents } from './messages.repository';
export { notifyChanged } from './notify';
export { findParts, openKeysSince, settleParts, type PartStat } from './parts.repository';
export { refundMessages } from './refunds';
export { annotate, transition, type Transitioned, type TransitionRow } from './status.repository';
export { createPartitionDirectory } from './partition-directory';
