import type { AadeError } from '@protocol/contracts';
import type { TFunction } from 'i18next';

/**
 * One transmission error in the user's language: a schema rule with the field it names, AADE's
 * code with AADE's own message, or what happened on the way. The page and the list say the same.
 */
export function errorText(t: TFunction, error: AadeError): string {
  if (error.code === 'xsd' && error.rule) {
    const field = error.field ?? '';
    return `${t('mydata.document.xsdRule')}: ${t(`mydata.xsd.${error.rule}`, {
      field: t(`mydata.xsdField.${field}`, { defaultValue: field }),
      value: error.value ?? '',
    })}`;
  }
  if (error.code === 'originalNotSent') return t('mydata.error.originalNotSent');
  const head =
    error.code === 'xsd'
      ? t('mydata.document.xsdRule')
      : error.code === 'timeout' || error.code === 'unavailable'
        ? t(`mydata.document.${error.code}`)
        : `${t('mydata.document.aadeCode')} ${error.code}`;
  return error.message ? `${head}: ${error.message}` : head;
}
