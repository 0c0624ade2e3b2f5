import AssignmentOutlinedIcon from '@mui/icons-material/AssignmentOutlined';
import DynamicFormOutlinedIcon from '@mui/icons-material/DynamicFormOutlined';
import InboxOutlinedIcon from '@mui/icons-material/InboxOutlined';
import NoteAddOutlinedIcon from '@mui/icons-material/NoteAddOutlined';
import { type Feature, searchGroup } from '../../lib/feature.ts';
import './i18n/shell.ts';

const FormBuilderPage = () => import('./FormBuilderPage.tsx');
const SubmissionPage = () => import('./SubmissionPage.tsx');

/** Online applications (spec §2 /online_forms: after case files, before traders). */
export const onlineForms: Feature = {
  key: 'onlineForms',
  routes: [
    { path: 'online_forms', page: () => import('./FormsListPage.tsx'), requires: 'forms:read' },
    { path: 'online_forms/create', page: FormBuilderPage, requires: 'forms:write' },
    {
      path: 'online_forms/submissions',
      page: () => import('./SubmissionsListPage.tsx'),
      requires: 'forms:read',
    },
    { path: 'online_forms/submissions/:submissionId', page: SubmissionPage, requires: 'forms:read' },
    { path: 'online_forms/submissions/:submissionId/edit', page: SubmissionPage, requires: 'forms:write' },
    { path: 'online_forms/:formId/edit', page: FormBuilderPage, requires: 'forms:read' },
  ],
  menu: [
    {
      key: 'onlineForms',
      label: 'menu.onlineForms',
      path: '/online_forms',
      icon: DynamicFormOutlinedIcon,
      requires: 'forms:read',
    },
    {
      key: 'onlineFormsList',
      parent: 'onlineForms',
      label: 'menu.onlineFormsList',
      path: '/online_forms',
      icon: AssignmentOutlinedIcon,
      requires: 'forms:read',
    },
    {
      key: 'onlineFormSubmissions',
      parent: 'onlineForms',
      label: 'menu.submissions',
      path: '/online_forms/submissions',
      icon: InboxOutlinedIcon,
      requires: 'forms:read',
    },
  ],
  create: [
    {
      key: 'onlineForm',
      label: 'onlineForms.new',
      description: 'onlineForms.newDescription',
      path: '/online_forms/create',
      icon: NoteAddOutlinedIcon,
      requires: 'forms:write',
    },
  ],
  search: [
    searchGroup({
      key: 'submissionDTOList',
      label: 'menu.submissions',
      icon: InboxOutlinedIcon,
      present: (submission) => ({
        primary: `${submission.reference} · ${submission.applicant ?? ''}`,
        secondary: submission.formTitle,
        path: `/online_forms/submissions/${submission.id}`,
      }),
    }),
  ],
};
