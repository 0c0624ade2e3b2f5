import TextField from '@mui/material/TextField';
import { type Control, Controller, type FieldPath, type FieldValues } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { fieldMessage } from '../../lib/errors.ts';

/** A text area bound to react-hook-form (subjects, comments). */
export function MultilineField<T extends FieldValues>({
  control,
  name,
  label,
  testId,
  required,
  disabled,
  rows = 2,
}: {
  control: Control<T>;
  name: FieldPath<T>;
  label: string;
  testId: string;
  required?: boolean;
  disabled?: boolean;
  rows?: number;
}) {
  const { t } = useTranslation();
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => (
        <TextField
          fullWidth
          multiline
          minRows={rows}
          label={label}
          required={required}
          disabled={disabled}
          value={field.value}
          onChange={field.onChange}
          onBlur={field.onBlur}
          inputRef={field.ref}
          error={Boolean(fieldState.error)}
          helperText={fieldMessage(t, fieldState.error?.message)}
          slotProps={{ htmlInput: { 'data-testid': testId } }}
        />
      )}
    />
  );
}
