// What other features may use of the sync engine (the lint borders allow only this file across features).
export { LocalOriginals } from './local-originals';
export { DeletePolicy, RemoteDeleter } from './remote-delete';
