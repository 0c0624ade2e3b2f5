export { CustomFields } from './CustomFields.tsx';
export { useCustomFieldDefinitions } from './useCustomFieldDefinitions.ts';
export {
  type CustomFieldFormValues,
  checkCustomFieldForm,
  customFieldsToBody,
  customFieldsToForm,
} from './values.ts';
