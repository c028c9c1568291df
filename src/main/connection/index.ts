// What other features may use of the library connection (the lint borders allow only this file across features).
export { ServiceConnection } from './library-connection';
