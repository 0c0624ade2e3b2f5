import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import { type Control, Controller, type FieldPath, type FieldValues } from 'react-hook-form';

/** An on/off field bound to react-hook-form, labelled on its right. */
export function SwitchField<T extends FieldValues>({
  control,
  name,
  label,
  testId,
  disabled,
}: {
  control: Control<T>;
  name: FieldPath<T>;
  label: string;
  testId: string;
  disabled?: boolean;
}) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <FormControlLabel
          label={label}
          disabled={disabled}
          control={
            <Switch
              checked={field.value === true}
              onChange={(event) => field.onChange(event.target.checked)}
              onBlur={field.onBlur}
              slotProps={{ input: { 'data-testid': testId, role: 'switch', ref: field.ref } as object }}
            />
          }
        />
      )}
    />
  );
}
