/** Field validators shared by the schemas, prompts and the sandbox. */
export { bareDocument, documentProblem, isCnpj, isCpf, normaliseCpfCnpj, type DocumentKind } from './documents.js';
export { isEmail, normalisePhone, phoneProblem, MAX_EMAIL } from './contact.js';
