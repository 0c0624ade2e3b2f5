import AccountTreeOutlinedIcon from '@mui/icons-material/AccountTreeOutlined';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Divider from '@mui/material/Divider';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { formatDateTime } from '../../lib/dates.ts';
import { useLocalize } from '../../lib/language.tsx';
import type { DocumentLink, ProtocolDocument } from './model.ts';

function Row({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <Box data-testid={testId}>
      <Typography variant="caption" color="text.secondary" component="div" sx={{ fontWeight: 500 }}>
        {label}
      </Typography>
      <Box sx={{ typography: 'body2', mt: 0.25 }}>{children}</Box>
    </Box>
  );
}

function DocLink({ link, testId }: { link: DocumentLink; testId: string }) {
  const { t } = useTranslation();
  const localize = useLocalize();
  return (
    <Link component={RouterLink} to={localize(`/document/${link.id}/edit`)} data-testid={testId}>
      {link.protocolId ?? t('docs.info.unregisteredLink')} · {link.subject}
    </Link>
  );
}

/**
 * What happened to the document beyond its fields: the charge, the send status, the reply and
 * clone links, the case folders and the signatures.
 */
export function DocumentInfo({ document }: { document: ProtocolDocument }) {
  const { t } = useTranslation();
  const localize = useLocalize();
  const charged = document.chargedUser?.fullName ?? document.chargedGroup?.name ?? null;
  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, md: 2.5 } }} data-testid="document-info">
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 2 }}>
        <AccountTreeOutlinedIcon fontSize="small" color="action" />
        <Typography variant="h2" sx={{ fontSize: '1.05rem' }}>
          {t('docs.info.title')}
        </Typography>
      </Box>
      <Stack spacing={1.75} divider={<Divider flexItem />}>
        <Row label={t('docs.info.charged')} testId="document-charged">
          {charged ?? (
            <Typography variant="body2" color="text.secondary" component="span">
              {t('docs.info.notCharged')}
            </Typography>
          )}
        </Row>
        {document.kind === 1 && (
          <Row label={t('docs.info.sendStatus')} testId="document-send-status">
            <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1 }}>
              <Chip
                size="small"
                color={document.sendStatus === 2 || document.sendStatus === 9 ? 'success' : 'default'}
                label={t(`documents.sendStatus.${document.sendStatus}`)}
              />
              {document.sentAt && (
                <span>{t('docs.info.sentAt', { date: formatDateTime(document.sentAt) })}</span>
              )}
            </Box>
          </Row>
        )}
        {document.replyTo && (
          <Row label={t('docs.info.replyTo')}>
            <DocLink link={document.replyTo} testId="document-reply-to" />
          </Row>
        )}
        {document.replies.length > 0 && (
          <Row label={t('docs.info.replies')}>
            <Stack spacing={0.5}>
              {document.replies.map((reply) => (
                <DocLink key={reply.id} link={reply} testId={`document-reply-${reply.id}`} />
              ))}
            </Stack>
          </Row>
        )}
        {document.cloneDocument !== null && (
          <Row label={t('docs.info.cloneOf')}>
            <Link
              component={RouterLink}
              to={localize(`/document/${document.cloneDocument}/edit`)}
              data-testid="document-clone-source"
            >
              {t('docs.info.document', { id: document.cloneDocument })}
            </Link>
          </Row>
        )}
        <Row label={t('docs.info.cases')} testId="document-cases">
          {document.cases.length === 0 ? (
            <Typography variant="body2" color="text.secondary" component="span">
              {t('docs.info.noCases')}
            </Typography>
          ) : (
            <Stack spacing={0.5}>
              {document.cases.map((item) => (
                <Link
                  key={item.id}
                  component={RouterLink}
                  to={localize(`/cases/${item.id}/edit`)}
                  data-testid={`document-case-${item.id}`}
                >
                  {item.code} · {item.name}
                </Link>
              ))}
            </Stack>
          )}
        </Row>
        <Row label={t('docs.info.signatures')} testId="document-signatures">
          {document.signatures.length === 0 ? (
            <Typography variant="body2" color="text.secondary" component="span">
              {t('docs.info.noSignatures')}
            </Typography>
          ) : (
            <Stack spacing={0.75}>
              {document.signatures.map((signature) => (
                <Box key={signature.id} data-testid={`document-signature-${signature.id}`}>
                  <div>
                    {t('docs.info.signedBy', {
                      name: signature.user.fullName || signature.user.username,
                      date: formatDateTime(signature.signedAt),
                    })}
                  </div>
                  <Typography
                    variant="caption"
                    color="text.secondary"
                    sx={{ fontFamily: 'monospace' }}
                    title={signature.contentHash}
                  >
                    {t('docs.info.hash', { hash: `${signature.contentHash.slice(0, 16)}…` })}
                  </Typography>
                  {signature.comments && (
                    <Typography variant="body2" color="text.secondary">
                      {signature.comments}
                    </Typography>
                  )}
                </Box>
              ))}
            </Stack>
          )}
        </Row>
      </Stack>
    </Paper>
  );
}
