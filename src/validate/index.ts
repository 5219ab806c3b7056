/** Field validators shared by the schemas, prompts and the sandbox. */
export { bareDocument, isCnpj, isCpf, normaliseCpfCnpj } from './documents.js';
export { isEmail, normalisePhone, MAX_EMAIL } from './contact.js';
