import { type Control, Controller, type FieldPath, type FieldValues } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { fieldMessage } from '../../lib/errors.ts';
import { OutlinedField, type OutlinedFieldProps } from './OutlinedField.tsx';

type Props<T extends FieldValues> = Omit<
  OutlinedFieldProps,
  'name' | 'value' | 'onChange' | 'onBlur' | 'inputRef' | 'error'
> & {
  control: Control<T>;
  name: FieldPath<T>;
};

/** An outlined text field bound to react-hook-form; its error (a catalog key) is translated under it. */
export function FormTextField<T extends FieldValues>({ control, name, ...rest }: Props<T>) {
  const { t } = useTranslation();
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => (
        <OutlinedField
          {...rest}
          name={field.name}
          value={field.value ?? ''}
          onChange={field.onChange}
          onBlur={field.onBlur}
          inputRef={field.ref}
          error={fieldMessage(t, fieldState.error?.message)}
        />
      )}
    />
  );
}
