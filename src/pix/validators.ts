/** Field validators shared by the schemas, prompts and the sandbox. */
export { bareDocument, documentProblem, isCnpj, isCpf, normaliseCpfCnpj, type DocumentKind } from './documents.js';
export {
  areaCodeList,
  describeCharacter,
  dictEmailProblem,
  emailProblem,
  isAreaCode,
  isEmail,
  MAX_EMAIL,
  MAX_EMAIL_KEY,
  normaliseEmailKey,
  normalisePhone,
  phoneProblem,
  replacementProblem,
  textProblem,
} from './contact.js';
