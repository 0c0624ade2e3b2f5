import AttachFileIcon from '@mui/icons-material/AttachFile';
import CloseIcon from '@mui/icons-material/Close';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  type FieldValue,
  type FileRef,
  type FormElement,
  type FormRow,
  type FormStructure,
  isInput,
  parseRules,
  rowColumns,
  rowShown,
  type SubmissionValues,
  visibleFields,
} from '@protocol/contracts';
import type { TFunction } from 'i18next';
import { useEffect, useId, useRef, useState } from 'react';

/*
 * One renderer of a form's rows for the builder's preview, the citizen's public form and the review
 * desk: the stored structure, the values, the errors of the contracts' rule engine. Every value is
 * shown as text (React escapes it), never as HTML.
 */

export type FieldErrors = Record<string, { key: string; params: Record<string, string | number> }>;

export interface FormRendererProps {
  structure: FormStructure;
  values: SubmissionValues;
  onChange?: (values: SubmissionValues) => void;
  errors?: FieldErrors;
  /** Texts in the form's (or the page's) language. */
  t: TFunction;
  /** The page's language: under /en a field shows its English label when it has one. */
  language?: 'el' | 'en';
  readOnly?: boolean;
  /** A phone-sized frame: every column full width. */
  narrow?: boolean;
  /** Stores a chosen file (public form); without it files are shown by name only. */
  upload?: (field: string, file: File) => Promise<FileRef>;
  /** Where an element's DOM ids start, so two renderers on one page do not clash. */
  idPrefix?: string;
  /** Suggestions of an API autocomplete field (public form); without it the field is plain text. */
  lookup?: (field: string, text: string) => Promise<string[]>;
}

const inputType: Partial<Record<FormElement['type'], string>> = {
  email: 'email',
  phone: 'tel',
  date: 'date',
};
const inputMode: Partial<Record<FormElement['type'], 'numeric' | 'decimal' | 'email' | 'tel'>> = {
  number: 'numeric',
  decimal: 'decimal',
  afm: 'numeric',
};

export function FormRenderer(props: FormRendererProps) {
  const { structure, values } = props;
  const visible = visibleFields(structure, values);
  return (
    <Stack spacing={2}>
      {structure.map((row, index) =>
        rowShown(row, values, visible) ? (
          // Rows have no id of their own; their place is what the builder edits.
          // biome-ignore lint/suspicious/noArrayIndexKey: the row's position is its identity here
          <RowView key={index} row={row} visible={visible} {...props} />
        ) : null,
      )}
    </Stack>
  );
}

function RowView({ row, visible, ...props }: FormRendererProps & { row: FormRow; visible: Set<string> }) {
  const columns = rowColumns(row);
  const body = (
    <Box
      sx={{
        display: 'grid',
        gap: 2,
        gridTemplateColumns: props.narrow ? '1fr' : { xs: '1fr', sm: `repeat(${row.grid}, minmax(0, 1fr))` },
      }}
    >
      {columns.map((elements, c) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: columns are positional (elements1…N)
        <Stack key={c} spacing={2}>
          {elements.map((element, e) =>
            isInput(element) && !visible.has(element.options.field ?? '') ? null : (
              // biome-ignore lint/suspicious/noArrayIndexKey: elements are positional in their column
              <ElementView key={`${c}-${e}`} element={element} {...props} />
            ),
          )}
        </Stack>
      ))}
    </Box>
  );
  const titled = row.showTitle && row.name;
  const content = (
    <>
      {titled && (
        <Typography component="h2" variant="subtitle1" sx={{ fontWeight: 600, mb: 1.5 }}>
          {row.name}
        </Typography>
      )}
      {body}
    </>
  );
  if (row.theme === 'Plain') return <Box component="section">{content}</Box>;
  return (
    <Paper
      component="section"
      variant="outlined"
      sx={{
        p: 2,
        ...(row.theme === 'Highlighted' ? { bgcolor: 'action.hover', borderColor: 'primary.light' } : {}),
      }}
    >
      {content}
    </Paper>
  );
}

function ElementView({
  element,
  values,
  onChange,
  errors,
  t,
  readOnly,
  upload,
  lookup,
  idPrefix = 'f',
  language,
}: FormRendererProps & { element: FormElement }) {
  const name = element.options.field ?? '';
  const value = values[name];
  const error = errors?.[name];
  const message = error ? t(error.key, error.params) : undefined;
  const required = parseRules(safeRule(element.validation)).required;
  const label = (language === 'en' ? element.options.labelEn : undefined) || element.options.label || name;
  const set = (next: FieldValue | undefined) => {
    if (!onChange) return;
    const copy = { ...values };
    if (next === undefined) delete copy[name];
    else copy[name] = next;
    onChange(copy);
  };
  const id = `${idPrefix}-${name}`;
  const help = message ?? element.options.help;

  switch (element.type) {
    case 'heading':
      return (
        <Typography component="h3" variant="h6">
          {element.options.text}
        </Typography>
      );
    case 'paragraph':
      return (
        <Typography variant="body2" color="text.secondary" sx={{ whiteSpace: 'pre-line' }}>
          {element.options.text}
        </Typography>
      );
    case 'checkbox':
      if (element.items.length === 0) {
        return (
          <FormControl error={Boolean(message)} required={required}>
            <FormControlLabel
              control={
                <Checkbox
                  id={id}
                  checked={value === true}
                  onChange={(event) => set(event.target.checked)}
                  disabled={readOnly}
                  slotProps={{ input: { 'aria-describedby': help ? `${id}-help` : undefined } }}
                />
              }
              label={`${label}${required ? ' *' : ''}`}
            />
            {help && <FormHelperText id={`${id}-help`}>{help}</FormHelperText>}
          </FormControl>
        );
      }
      return (
        <FormControl component="fieldset" error={Boolean(message)} required={required}>
          <FormLabel component="legend">{label}</FormLabel>
          <FormGroup>
            {element.items.map((item) => {
              const list = Array.isArray(value) ? (value as string[]) : [];
              return (
                <FormControlLabel
                  key={item.value}
                  control={
                    <Checkbox
                      checked={list.includes(item.value)}
                      disabled={readOnly}
                      onChange={(event) =>
                        set(
                          event.target.checked ? [...list, item.value] : list.filter((v) => v !== item.value),
                        )
                      }
                    />
                  }
                  label={item.label}
                />
              );
            })}
          </FormGroup>
          {help && <FormHelperText>{help}</FormHelperText>}
        </FormControl>
      );
    case 'radio':
      return (
        <FormControl component="fieldset" error={Boolean(message)} required={required}>
          <FormLabel component="legend" id={`${id}-label`}>
            {label}
          </FormLabel>
          <RadioGroup
            aria-labelledby={`${id}-label`}
            name={id}
            value={typeof value === 'string' ? value : ''}
            onChange={(event) => set(event.target.value)}
          >
            {element.items.map((item) => (
              <FormControlLabel
                key={item.value}
                value={item.value}
                control={<Radio disabled={readOnly} />}
                label={item.label}
              />
            ))}
          </RadioGroup>
          {help && <FormHelperText>{help}</FormHelperText>}
        </FormControl>
      );
    case 'autocomplete':
      if (lookup && !readOnly) {
        return (
          <LookupField
            id={id}
            label={label}
            required={required}
            value={typeof value === 'string' ? value : ''}
            onChange={(text) => set(text === '' ? undefined : text)}
            error={Boolean(message)}
            help={help}
            find={(text) => lookup(name, text)}
          />
        );
      }
      break;
    case 'file':
      return (
        <FileField
          id={id}
          label={label}
          required={required}
          files={Array.isArray(value) ? (value as FileRef[]) : []}
          onChange={(files) => set(files.length > 0 ? files : undefined)}
          message={help}
          error={Boolean(message)}
          readOnly={readOnly}
          upload={upload ? (file) => upload(name, file) : undefined}
          t={t}
          accept={element.options.accept}
        />
      );
  }
  return (
    <TextField
      id={id}
      label={label}
      required={required}
      fullWidth
      size="small"
      value={typeof value === 'string' ? value : ''}
      onChange={(event) => set(event.target.value === '' ? undefined : event.target.value)}
      error={Boolean(message)}
      helperText={help}
      placeholder={element.options.placeholder}
      multiline={element.type === 'textarea'}
      minRows={element.type === 'textarea' ? 3 : undefined}
      select={element.type === 'select'}
      type={inputType[element.type] ?? 'text'}
      slotProps={{
        input: { readOnly },
        htmlInput: { inputMode: inputMode[element.type], 'data-field': name },
        inputLabel: element.type === 'date' ? { shrink: true } : undefined,
      }}
    >
      {element.type === 'select'
        ? [
            <MenuItem key="" value="">
              —
            </MenuItem>,
            ...element.items.map((item) => (
              <MenuItem key={item.value} value={item.value}>
                {item.label}
              </MenuItem>
            )),
          ]
        : undefined}
    </TextField>
  );
}

function LookupField(props: {
  id: string;
  label: string;
  required: boolean;
  value: string;
  onChange: (text: string) => void;
  error: boolean;
  help?: string;
  find: (text: string) => Promise<string[]>;
}) {
  const [options, setOptions] = useState<string[]>([]);
  const { find } = props;
  // Asks as the citizen types (debounced); stale answers are dropped.
  useEffect(() => {
    const text = props.value;
    if (text.trim().length < 2) return;
    let live = true;
    const timer = setTimeout(() => {
      find(text).then(
        (found) => live && setOptions(found),
        () => live && setOptions([]),
      );
    }, 250);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [props.value, find]);
  return (
    <Autocomplete
      freeSolo
      options={options}
      filterOptions={(list) => list}
      inputValue={props.value}
      onInputChange={(_, text) => props.onChange(text)}
      renderInput={(params) => (
        <TextField
          {...params}
          id={props.id}
          label={props.label}
          required={props.required}
          size="small"
          error={props.error}
          helperText={props.help}
        />
      )}
    />
  );
}

function safeRule(rule: string) {
  try {
    parseRules(rule);
    return rule;
  } catch {
    return '';
  }
}

function FileField(props: {
  id: string;
  label: string;
  required: boolean;
  files: FileRef[];
  onChange: (files: FileRef[]) => void;
  message?: string;
  error: boolean;
  readOnly?: boolean;
  upload?: (file: File) => Promise<FileRef>;
  t: TFunction;
  accept?: string[];
}) {
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const helpId = useId();
  const choose = async (list: FileList | null) => {
    if (!list || !props.upload) return;
    setBusy(true);
    setFailure(null);
    try {
      const added: FileRef[] = [];
      for (const file of Array.from(list)) added.push(await props.upload(file));
      props.onChange([...props.files, ...added]);
    } catch (error) {
      const e = error as { key?: string; params?: Record<string, string | number>; message?: string };
      setFailure(e.key ? props.t(e.key, e.params) : (e.message ?? String(error)));
    } finally {
      setBusy(false);
      if (input.current) input.current.value = '';
    }
  };
  const message = failure ?? props.message;
  return (
    <FormControl error={props.error || Boolean(failure)} required={props.required}>
      <FormLabel htmlFor={props.id}>{props.label}</FormLabel>
      <Stack spacing={0.5} sx={{ mt: 0.5 }}>
        {props.files.map((file) => (
          <Stack key={file.id} direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            <AttachFileIcon fontSize="small" color="action" />
            <Typography variant="body2">{file.name}</Typography>
            {!props.readOnly && (
              <IconButton
                size="small"
                aria-label={props.t('onlineForms.public.removeFile', { name: file.name })}
                onClick={() => props.onChange(props.files.filter((f) => f.id !== file.id))}
              >
                <CloseIcon fontSize="small" />
              </IconButton>
            )}
          </Stack>
        ))}
        {!props.readOnly && (
          <Box>
            <Button
              variant="outlined"
              size="small"
              component="label"
              loading={busy}
              startIcon={<AttachFileIcon />}
            >
              {props.t('onlineForms.public.chooseFile')}
              <input
                ref={input}
                id={props.id}
                type="file"
                hidden
                accept={props.accept?.map((a) => `.${a}`).join(',')}
                aria-describedby={message ? helpId : undefined}
                onChange={(event) => void choose(event.target.files)}
              />
            </Button>
          </Box>
        )}
      </Stack>
      {message && <FormHelperText id={helpId}>{message}</FormHelperText>}
    </FormControl>
  );
}
