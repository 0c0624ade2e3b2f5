import './i18n/index.ts';
import DiscountOutlinedIcon from '@mui/icons-material/DiscountOutlined';
import { formatDecimal, formatMoney } from '@protocol/contracts';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useLang } from '../../lib/language.tsx';
import { billingApi, discountKey, useCoded } from './api.ts';
import { PoliciesPage, Validity } from './PoliciesPage.tsx';

/** /billing/discount_policies: social tariffs and surcharges, and the "try it" panel. */
export default function DiscountPoliciesPage() {
  const { t } = useTranslation();
  const language = useLang();
  const query = useQuery({
    queryKey: [...discountKey],
    queryFn: ({ signal }) => billingApi.discounts(signal),
  });
  const regulations = new Map(useCoded('specialRegulations').map((r) => [r.id, r.description]));
  return (
    <PoliciesPage
      texts="discounts"
      path="/billing/discount_policies"
      icon={<DiscountOutlinedIcon />}
      testIds={{ header: 'billing-discounts-header', item: 'billing-discount' }}
      policies={query.data}
      loading={query.isLoading}
      columns={[
        { label: t('billingUi.pricing.description'), cell: (p) => p.description },
        {
          label: t('billingUi.discounts.reduction'),
          cell: (p) => t(`billingUi.discounts.reduction_${p.reduction}`),
        },
        {
          label: t('billingUi.discounts.amount'),
          cell: (p) =>
            p.amountType === 2
              ? `${formatDecimal(p.amount, language)}%`
              : `${formatMoney(p.amount, language)} € / ${t(`billingUi.discounts.calculation_${p.calculation}`)}`,
        },
        {
          label: t('billingUi.discounts.charges'),
          cell: (p) => p.charges.map((c) => t(`billing.charge.${c}`)).join(', '),
        },
        {
          label: t('billingUi.discounts.regulations'),
          cell: (p) => p.specialRegulationIds.map((id) => regulations.get(id) ?? id).join(', '),
        },
        { label: t('billingUi.pricing.validity'), cell: (p) => <Validity policy={p} /> },
      ]}
    />
  );
}
