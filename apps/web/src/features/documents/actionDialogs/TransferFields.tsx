import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { documentsApi } from '../api.ts';
import type { DocumentListItem, ProtocolDocument } from '../model.ts';
import { type Request, useDebounced } from './shared.tsx';

/** File transfer: a target document (by protocol no. or subject), which files, copy or move. */
export function TransferFields({
  document,
  onReady,
}: {
  document: ProtocolDocument;
  onReady: (request: Partial<Request> | null) => void;
}) {
  const { t } = useTranslation();
  const [input, setInput] = useState('');
  const [target, setTarget] = useState<DocumentListItem | null>(null);
  const [chosen, setChosen] = useState<number[]>(() => document.attachments.map((file) => file.id));
  const registered = document.protocolNumber !== null;
  const [move, setMove] = useState(false);
  const search = useDebounced(input.trim(), 250);
  const results = useQuery({
    queryKey: ['documents', 'transferTarget', search],
    queryFn: ({ signal }) => documentsApi.search(search, signal),
    enabled: search.length >= 2,
  });
  useEffect(
    () =>
      onReady(
        target && chosen.length > 0 ? { targetDocumentId: target.id, attachmentIds: chosen, move } : null,
      ),
    [target, chosen, move, onReady],
  );
  const options = (results.data?.content ?? []).filter((row) => row.id !== document.id);
  const label = (row: DocumentListItem) =>
    `${row.protocolId ?? t('docs.info.unregisteredLink')} · ${row.subject}`;
  return (
    <Stack spacing={2}>
      <Autocomplete<DocumentListItem>
        options={options}
        loading={results.isFetching}
        value={target}
        filterOptions={(items) => items}
        onChange={(_event, next) => setTarget(next)}
        onInputChange={(_event, next) => setInput(next)}
        isOptionEqualToValue={(option, selected) => option.id === selected.id}
        getOptionLabel={label}
        noOptionsText={search.length < 2 ? t('docs.actions.typeMore') : t('docs.actions.noResults')}
        renderOption={({ key, ...props }, option) => (
          <li key={key} {...props} data-testid={`transfer-option-${option.id}`}>
            <Box sx={{ minWidth: 0 }}>
              <Typography variant="body2" noWrap>
                {option.protocolId ?? t('docs.info.unregisteredLink')} · {option.subject}
              </Typography>
              {option.correspondents && (
                <Typography variant="caption" color="text.secondary" noWrap component="div">
                  {option.correspondents}
                </Typography>
              )}
            </Box>
          </li>
        )}
        renderInput={(params) => (
          <TextField
            {...params}
            label={t('docs.actions.targetDocument')}
            helperText={t('docs.actions.searchDocument')}
            required
            slotProps={{
              ...params.slotProps,
              htmlInput: { ...params.slotProps.htmlInput, 'data-testid': 'transfer-target' },
            }}
          />
        )}
      />
      <Box>
        <Typography variant="subtitle2">{t('docs.actions.chooseFiles')}</Typography>
        {document.attachments.length === 0 ? (
          <Typography variant="body2" color="text.secondary">
            {t('docs.actions.noFiles')}
          </Typography>
        ) : (
          <FormGroup data-testid="transfer-files">
            {document.attachments.map((file) => (
              <FormControlLabel
                key={file.id}
                label={file.fileName}
                control={
                  <Checkbox
                    size="small"
                    checked={chosen.includes(file.id)}
                    onChange={(event) =>
                      setChosen((list) =>
                        event.target.checked ? [...list, file.id] : list.filter((item) => item !== file.id),
                      )
                    }
                    slotProps={{ input: { 'data-testid': `transfer-file-${file.id}` } as object }}
                  />
                }
              />
            ))}
          </FormGroup>
        )}
      </Box>
      <RadioGroup value={move ? 'move' : 'copy'} onChange={(event) => setMove(event.target.value === 'move')}>
        <FormControlLabel
          value="copy"
          control={<Radio slotProps={{ input: { 'data-testid': 'transfer-copy' } as object }} />}
          label={t('docs.actions.copy')}
        />
        <FormControlLabel
          value="move"
          disabled={registered}
          control={<Radio slotProps={{ input: { 'data-testid': 'transfer-move' } as object }} />}
          label={t('docs.actions.move')}
        />
      </RadioGroup>
      {registered && (
        <Typography variant="caption" color="text.secondary">
          {t('docs.actions.moveRefused')}
        </Typography>
      )}
    </Stack>
  );
}
