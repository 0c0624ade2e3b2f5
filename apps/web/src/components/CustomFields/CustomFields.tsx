import FormControlLabel from '@mui/material/FormControlLabel';
import Grid from '@mui/material/Grid';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import { type CustomFieldDefinition, customFieldLabel } from '@protocol/contracts';
import type { ReactNode } from 'react';
import { type Control, Controller, type FieldPath, type FieldValues } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { DATE_FORMAT } from '../../lib/dates.ts';
import { fieldMessage } from '../../lib/errors.ts';
import { FormTextField } from '../FormTextField.tsx';

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
            <Controller
              control={control}
              name={path}
              render={({ field }) => (
                <FormControlLabel
                  label={label}
                  disabled={disabled}
                  control={
                    <Switch
                      checked={field.value === true}
                      onChange={(event) => field.onChange(event.target.checked)}
                      onBlur={field.onBlur}
                      slotProps={{
                        input: { 'data-testid': testId, role: 'switch', ref: field.ref } as object,
                      }}
                    />
                  }
                />
              )}
            />
          );
        } else if (definition.type === 'select') {
          input = (
            <Controller
              control={control}
              name={path}
              render={({ field, fieldState }) => (
                <TextField
                  select
                  fullWidth
                  disabled={disabled}
                  label={definition.required ? `${label} *` : label}
                  value={String(field.value ?? '')}
                  onChange={(event) => field.onChange(event.target.value)}
                  onBlur={field.onBlur}
                  inputRef={field.ref}
                  error={Boolean(fieldState.error)}
                  helperText={fieldMessage(t, fieldState.error?.message)}
                  slotProps={{
                    select: { native: true },
                    inputLabel: { shrink: true },
                    htmlInput: { 'data-testid': testId },
                  }}
                >
                  <option value="">{t('common.empty')}</option>
                  {definition.choices.map((choice) => (
                    <option key={choice.id} value={String(choice.id)}>
                      {choice.description}
                    </option>
                  ))}
                </TextField>
              )}
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
              helperText={definition.type === 'date' ? DATE_FORMAT : undefined}
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
