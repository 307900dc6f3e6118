/** The auth feature's public api: what other features may use (eslint blocks deeper imports). */
export { EnrollStep } from './components/two-factor-step';
