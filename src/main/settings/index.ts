// What other features may use of the settings (the lint borders allow only this file across features).
export { AppSettings } from './app-settings';
