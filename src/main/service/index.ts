// What other features may use of the embedded service's supervision (the lint borders allow only this file across features).
export { startEmbeddedService, type EmbeddedLaunch } from './embedded';
export { serviceProblem } from './handlers';
export type { ServiceSupervisor } from './supervisor';
