import './i18n/index.ts';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import GridOnOutlinedIcon from '@mui/icons-material/GridOnOutlined';
import LockOutlinedIcon from '@mui/icons-material/LockOutlined';
import PrintOutlinedIcon from '@mui/icons-material/PrintOutlined';
import VerifiedOutlinedIcon from '@mui/icons-material/VerifiedOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableFooter from '@mui/material/TableFooter';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { type Certification, FINALIZED, formatMoney } from '@protocol/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { useConfirm } from '../../components/ConfirmDialog.tsx';
import { useNotify } from '../../components/Notifier.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { api } from '../../lib/api.ts';
import { useAppBar } from '../../lib/appBarContext.tsx';
import { formatDate } from '../../lib/dates.ts';
import { errorMessage } from '../../lib/errors.ts';
import { saveFile } from '../../lib/files.ts';
import { useLang, useLocalize } from '../../lib/language.tsx';
import { useCan } from '../../lib/permissions.ts';
import { openPdf } from './print.ts';

/** /finance/certifications/:certificationId: review per income account, finalize, print, Excel. */
export default function CertificationPage() {
  const { t } = useTranslation();
  const lang = useLang();
  const { certificationId } = useParams();
  const id = Number(certificationId);
  const notify = useNotify();
  const navigate = useNavigate();
  const localize = useLocalize();
  const can = useCan();
  const client = useQueryClient();
  const [confirm, confirmDialog] = useConfirm();
  useAppBar({ title: t('finance.menu') });
  const key = ['financeCertification', id];
  const query = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => api.get<Certification>(`/api/finance/certifications/${id}`, { signal }),
  });
  const finalize = useMutation({
    mutationFn: () => api.post<Certification>(`/api/finance/certifications/${id}/finalize`, {}),
    onSuccess: (cert) => {
      client.setQueryData(key, cert);
      notify(t('finance.certifications.finalized', { number: `${cert.number}/${cert.year}` }), 'success');
    },
    onError: (failure) => notify(errorMessage(t, failure), 'error'),
  });
  const remove = useMutation({
    mutationFn: () => api.delete<void>(`/api/finance/certifications/${id}`),
    onSuccess: () => navigate(localize('/finance/certifications')),
    onError: (failure) => notify(errorMessage(t, failure), 'error'),
  });
  const cert = query.data;
  if (!cert) {
    return query.isError ? (
      <Alert severity="error">{errorMessage(t, query.error)}</Alert>
    ) : (
      <Skeleton variant="rounded" height={420} />
    );
  }
  const finalized = cert.entryState === FINALIZED;
  const money = (value: string) => formatMoney(value, lang);
  const run = async (action: () => Promise<unknown>) => {
    try {
      await action();
    } catch (failure) {
      notify(errorMessage(t, failure), 'error');
    }
  };
  const onFinalize = async () => {
    const ok = await confirm({
      title: t('finance.certifications.finalizeTitle'),
      message: t('finance.certifications.finalizeMessage'),
      confirmLabel: t('finance.form.finalize'),
    });
    if (ok) finalize.mutate();
  };
  return (
    <Box data-testid="finance-certification">
      {confirmDialog}
      <PageHeader
        title={`${t('finance.certifications.one')} ${finalized ? `${cert.number}/${cert.year}` : ''}`.trim()}
        subtitle={
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            <Chip
              size="small"
              color={finalized ? 'success' : 'default'}
              icon={finalized ? <LockOutlinedIcon /> : undefined}
              label={t(`finance.documents.entryState_${cert.entryState}`)}
              data-testid="certification-state"
            />
            <Typography variant="body2" color="text.secondary">
              {t('finance.certifications.period')}: {formatDate(cert.periodFrom)} –{' '}
              {formatDate(cert.periodTo)}
            </Typography>
          </Stack>
        }
        avatar={<VerifiedOutlinedIcon />}
        audit={cert}
        actions={
          <Stack direction="row" spacing={1}>
            <Button
              variant="outlined"
              startIcon={<PrintOutlinedIcon />}
              onClick={() => run(() => openPdf(`/api/finance/certifications/${id}/pdf?lang=${lang}`, false))}
              data-testid="certification-print"
            >
              {t('finance.form.print')}
            </Button>
            <Button
              variant="outlined"
              startIcon={<GridOnOutlinedIcon />}
              onClick={() =>
                run(() =>
                  saveFile(`/api/finance/certifications/${id}/xlsx?lang=${lang}`, `certification-${id}.xlsx`),
                )
              }
              data-testid="certification-excel"
            >
              {t('finance.certifications.excel')}
            </Button>
          </Stack>
        }
      />
      <Paper variant="outlined">
        <Table size="small" data-testid="certification-lines">
          <TableHead>
            <TableRow>
              <TableCell>{t('finance.certifications.account')}</TableCell>
              <TableCell align="right">{t('finance.certifications.documents')}</TableCell>
              <TableCell align="right">{t('finance.documents.net')}</TableCell>
              <TableCell align="right">{t('finance.documents.vat')}</TableCell>
              <TableCell align="right">{t('finance.certifications.total')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {cert.lines.map((line) => (
              <TableRow key={line.accountId ?? 'none'}>
                <TableCell>
                  {line.accountCode
                    ? `${line.accountCode} · ${line.accountDescr}`
                    : t('finance.certifications.noAccount')}
                </TableCell>
                <TableCell align="right">{line.documents}</TableCell>
                <TableCell align="right">{money(line.net)}</TableCell>
                <TableCell align="right">{money(line.vat)}</TableCell>
                <TableCell align="right">{money(line.total)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
          <TableFooter sx={{ '& td': { color: 'text.primary', fontSize: '0.875rem', fontWeight: 600 } }}>
            <TableRow>
              <TableCell sx={{ fontWeight: 600 }}>{t('finance.certifications.total')}</TableCell>
              <TableCell align="right">{cert.documents}</TableCell>
              <TableCell align="right">{money(cert.net)}</TableCell>
              <TableCell align="right">{money(cert.vat)}</TableCell>
              <TableCell align="right" sx={{ fontWeight: 600 }} data-testid="certification-total">
                {money(cert.total)} €
              </TableCell>
            </TableRow>
          </TableFooter>
        </Table>
      </Paper>
      {!finalized && can('finance:write') && (
        <Stack direction="row" spacing={1} sx={{ mt: 2, justifyContent: 'flex-end' }}>
          <Button
            color="error"
            startIcon={<DeleteOutlineIcon />}
            onClick={() => remove.mutate()}
            loading={remove.isPending}
            data-testid="certification-delete"
          >
            {t('finance.form.delete')}
          </Button>
          <Button
            variant="contained"
            startIcon={<LockOutlinedIcon />}
            loading={finalize.isPending}
            onClick={onFinalize}
            data-testid="certification-finalize"
          >
            {t('finance.form.finalize')}
          </Button>
        </Stack>
      )}
    </Box>
  );
}
