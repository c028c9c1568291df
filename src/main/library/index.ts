// What other features may use of the library feature (the lint borders allow only this file across features).
export type { DestinationChooser } from './destinations/policy';
export { refuseSystemFolder } from './destinations/watch-folders';
