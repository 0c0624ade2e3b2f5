import Grid from '@mui/material/Grid';
import { type CustomFieldDefinition, customFieldLabel } from '@protocol/contracts';
import type { ReactNode } from 'react';
import type { Control, FieldPath, FieldValues } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormTextField } from '../form/FormTextField.tsx';
import { SelectField, SwitchField } from '../form/fields.tsx';

interface Props<T extends FieldValues> {
  control: Control<T>;
  /** The form's object of custom field values, e.g. 'customFields'. */
  name: string;
  definitions: CustomFieldDefinition[];
  /** Each input's test id is `<testIdPrefix>-<key>`. */
  testIdPrefix: string;
  disabled?: boolean;
}

/**
 * The custom fields of an entity as inputs of a react-hook-form form, two to a row: text, number
 * and date inputs, a switch for yes/no, a list of the custom table's values for a choice. The form
 * keeps them as CustomFieldFormValues under `name` (see values.ts for the conversions and checks).
 */
export function CustomFields<T extends FieldValues>({
  control,
  name,
  definitions,
  testIdPrefix,
  disabled,
}: Props<T>) {
  const { t, i18n } = useTranslation();
  return (
    <Grid container spacing={2}>
      {definitions.map((definition) => {
        const label = customFieldLabel(definition, i18n.language);
        const path = `${name}.${definition.key}` as FieldPath<T>;
        const testId = `${testIdPrefix}-${definition.key}`;
        let input: ReactNode;
        if (definition.type === 'boolean') {
          input = (
            <SwitchField control={control} name={path} label={label} testId={testId} disabled={disabled} />
          );
        } else if (definition.type === 'select') {
          input = (
            <SelectField
              control={control}
              name={path}
              label={definition.required ? `${label} *` : label}
              testId={testId}
              disabled={disabled}
              empty={t('common.empty')}
              options={definition.choices.map((choice) => ({
                value: String(choice.id),
                label: choice.description,
              }))}
            />
          );
        } else {
          input = (
            <FormTextField
              control={control}
              name={path}
              label={label}
              required={definition.required}
              disabled={disabled}
              type={definition.type === 'number' ? 'number' : 'text'}
              helperText={definition.type === 'date' ? t('common.dateHint') : undefined}
              testId={testId}
              autoComplete="off"
            />
          );
        }
        return (
          <Grid key={definition.key} size={{ xs: 12, sm: 6 }}>
            {input}
          </Grid>
        );
      })}
    </Grid>
  );
}
