// What other modules may use of the companies (see README "Adding a module").
export {
  addUserToCompany,
  companiesOfUser,
  companyIdsOfUser,
  createCompany,
  printedCompany,
} from './companies.service.ts';
export { readCredentials } from './credentials.ts';
