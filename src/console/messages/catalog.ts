import type { Catalogue } from '../../web/i18n.js';

// The texts of the help-desk catalog's pages and of the maintenance switch (src/console/pages/catalog/,
// src/console/pages/maintenance.ts). The limits the hints state are the schemas' (catalog-input.ts,
// maintenance-input.ts), which check every form; the schemas' own messages name what is wrong.

const en = {
  catTitle: 'Help-desk catalog',
  catIntro:
    'What the partner systems read from the ticket API’s options route and send on their tickets. A change is honoured by this process at once and by the other processes of the fleet within a second.',
  catSubnav: 'Collections of the catalog',
  catColCollection: 'Collection',
  catColAbout: 'What it is',
  catColEntries: 'Entries',
  catEmpty: 'Nothing here yet.',
  catCount: '{count} entries, by id.',
  catCompanies: 'Companies',
  catCompaniesAbout:
    'The companies of the group a ticket can be opened for: the ticket’s “company”. Only active ones are offered.',
  catCompaniesNew: 'New company',
  catCompaniesEdit: 'Edit company {id}',
  catCompaniesSaved: 'Company {id} saved.',
  catCategoryTypes: 'Category types',
  catCategoryTypesAbout: 'The kinds of category (Incidente, Problema…), informational to the partners.',
  catCategoryTypesNew: 'New category type',
  catCategoryTypesEdit: 'Edit category type {id}',
  catCategoryTypesSaved: 'Category type {id} saved.',
  catPriorities: 'Priorities',
  catPrioritiesAbout: 'How urgent a ticket is, from level 1, with an informational response time.',
  catPrioritiesNew: 'New priority',
  catPrioritiesEdit: 'Edit priority {id}',
  catPrioritiesSaved: 'Priority {id} saved.',
  catCategories: 'Categories',
  catCategoriesAbout:
    'What a ticket is about: each of a type, with the priority a ticket gets when it names none. A system offers its default category and those released to it.',
  catCategoriesNew: 'New category',
  catCategoriesEdit: 'Edit category {id}',
  catCategoriesSaved: 'Category {id} saved.',
  catSupportLevels: 'Support levels',
  catSupportLevelsAbout: 'Who handles a ticket (N1, N2…); a ticket without one gets level 1.',
  catSupportLevelsNew: 'New support level',
  catSupportLevelsEdit: 'Edit support level {id}',
  catSupportLevelsSaved: 'Support level {id} saved.',
  catNatures: 'Natures',
  catNaturesAbout:
    'What kind of contact a ticket is (question, complaint…): the ticket’s “nature”. Only active ones are offered.',
  catNaturesNew: 'New nature',
  catNaturesEdit: 'Edit nature {id}',
  catNaturesSaved: 'Nature {id} saved.',
  catFieldId: 'Id',
  catFieldIdentifier: 'Identifier',
  catFieldName: 'Name',
  catFieldDescription: 'Description',
  catFieldActive: 'Active',
  catFieldLevel: 'Level',
  catFieldResponseTime: 'Response time (hours)',
  catFieldType: 'Category type',
  catFieldDefaultPriority: 'Default priority',
  catHintIntegerId:
    'A whole number from 1 to 2147483647, chosen by you: the entry’s id in the partners’ ticket options. It cannot be changed afterwards.',
  catHintCompanyId:
    '1 to 64 letters, digits, “.”, “_” or “-”, chosen by you: the partners send it as the ticket’s “company”. It cannot be changed afterwards.',
  catHintNatureId:
    '1 to 64 letters, digits, “.”, “_” or “-”, chosen by you: the partners send it as the ticket’s “nature”. It cannot be changed afterwards.',
  catHintName: 'Required, at most 200 characters; spaces at the start and the end are removed.',
  catHintDescription: 'Optional, at most 500 characters (the documents’ limit). Leave it empty for none.',
  catHintActiveCompany: 'Only active companies are offered to the partners and accepted on tickets.',
  catHintActiveNature:
    'Only active natures are offered; a ticket naming an inactive one is refused (invalid_nature).',
  catHintLevel:
    'A whole number from 1 to 2147483647: the partners list priorities from level 1, the most urgent.',
  catHintResponseTime: 'Whole hours, from 0 to 100000; informational to the partners.',
  catHintType: 'The type the category belongs to.',
  catHintDefaultPriority:
    'The priority a ticket of this category gets when it names none. The documents tell the partners that every category has one.',
  catChooseType: 'Choose a type',
  catNoPriority: 'None',
  catNoTypes: 'There is no category type yet: create one first.',
  catIdTaken: 'is taken: {id} exists already (change it from the list)',
  catSave: 'Save',
  catCancel: 'Cancel',
  catEdit: 'Edit',
  catDelete: 'Delete',
  catEditAria: 'Edit {id}',
  catDeleteAria: 'Delete {id}',
  catDeleteTitle: 'Delete category {id} “{name}”?',
  catDeleteIntro: 'Deleting a category cannot be undone. This is what happens:',
  catDeleteTickets:
    'Tickets of this category stay, without a category: their category_id becomes null, also when a partner resends one of them.',
  catDeleteDefault:
    'Partner systems that have it as their default category lose it and cannot open new tickets (503 misconfigured_system) until they are given another default: {systems}.',
  catDeleteReleased: 'Partner systems it is released to stop offering it: {systems}.',
  catDeleteNoSystem: 'No partner system has it as its default or among its released categories.',
  catDeleteButton: 'Delete category {id}',
  catDeleted: 'Category {id} “{name}” deleted.',
  maintTitle: 'Maintenance of the ticket API',
  maintState: 'Now',
  maintOnShort: 'In maintenance',
  maintOn: 'Every call of the ticket API answers 503 with Retry-After: {seconds} ({seconds} seconds).',
  maintOffShort: 'Open',
  maintOff: 'The ticket API serves the partners.',
  maintExplain:
    'While maintenance is on, every call of the partners’ ticket API (/v1/api-external-system/…) answers 503 temporarily_unavailable with the header Retry-After, before any other check. The partners keep their tickets and resend them after the wait with the same external_id. The merchants’ point-of-sale API is not affected.',
  maintFleet: 'This process honours the switch at once, the other processes of the fleet within a second.',
  maintRetryAfter: 'Retry-After (seconds)',
  maintRetryHint:
    'A whole number from 1 to 86400 (a day): how long the partners are asked to wait before they resend. Empty: 300 (5 minutes), the API’s default.',
  maintSwitchOn: 'Switch maintenance on',
  maintSwitchOnButton: 'Continue',
  maintConfirmTitle: 'Switch the ticket API off for maintenance?',
  maintConfirmText:
    'From the moment you confirm, every call of the partners’ ticket API answers 503 temporarily_unavailable with Retry-After: {seconds}, until you switch maintenance off here. No ticket is opened meanwhile: the partners keep theirs and resend them later.',
  maintConfirmButton: 'Switch maintenance on: partners get 503',
  maintChange: 'Change the wait',
  maintChangeButton: 'Save the Retry-After',
  maintSwitchOff: 'Switch maintenance off',
  maintSwitchOffText:
    'The ticket API answers the partners again at once; the tickets they kept and resend with their external_id are opened once.',
  maintSwitchOffButton: 'Switch maintenance off: partners are served again',
  maintDoneOn: 'Maintenance is on: the ticket API answers 503 with Retry-After {seconds} s.',
  maintDoneOff: 'Maintenance is off: the ticket API serves the partners again.',
};

type Key = keyof typeof en;

const ptBR: Record<Key, string> = {
  catTitle: 'Catálogo do help desk',
  catIntro:
    'O que os sistemas parceiros leem na rota de opções da API de chamados e enviam nos chamados. Uma alteração vale na hora neste processo e, em até um segundo, nos demais processos da frota.',
  catSubnav: 'Coleções do catálogo',
  catColCollection: 'Coleção',
  catColAbout: 'O que é',
  catColEntries: 'Registros',
  catEmpty: 'Nada cadastrado ainda.',
  catCount: '{count} registro(s), por id.',
  catCompanies: 'Empresas',
  catCompaniesAbout:
    'As empresas do grupo para as quais se abre um chamado: o campo “company” do chamado. Só as ativas são oferecidas.',
  catCompaniesNew: 'Nova empresa',
  catCompaniesEdit: 'Editar a empresa {id}',
  catCompaniesSaved: 'Empresa {id} salva.',
  catCategoryTypes: 'Tipos de categoria',
  catCategoryTypesAbout:
    'Os tipos de categoria (Incidente, Problema…), apenas informativos para os parceiros.',
  catCategoryTypesNew: 'Novo tipo de categoria',
  catCategoryTypesEdit: 'Editar o tipo de categoria {id}',
  catCategoryTypesSaved: 'Tipo de categoria {id} salvo.',
  catPriorities: 'Prioridades',
  catPrioritiesAbout: 'A urgência de um chamado, a partir do nível 1, com um prazo de resposta informativo.',
  catPrioritiesNew: 'Nova prioridade',
  catPrioritiesEdit: 'Editar a prioridade {id}',
  catPrioritiesSaved: 'Prioridade {id} salva.',
  catCategories: 'Categorias',
  catCategoriesAbout:
    'O assunto de um chamado: cada uma de um tipo, com a prioridade que o chamado recebe quando não informa nenhuma. Um sistema oferece a sua categoria padrão e as liberadas para ele.',
  catCategoriesNew: 'Nova categoria',
  catCategoriesEdit: 'Editar a categoria {id}',
  catCategoriesSaved: 'Categoria {id} salva.',
  catSupportLevels: 'Níveis de suporte',
  catSupportLevelsAbout: 'Quem atende o chamado (N1, N2…); um chamado sem nível recebe o nível 1.',
  catSupportLevelsNew: 'Novo nível de suporte',
  catSupportLevelsEdit: 'Editar o nível de suporte {id}',
  catSupportLevelsSaved: 'Nível de suporte {id} salvo.',
  catNatures: 'Naturezas',
  catNaturesAbout:
    'O tipo de contato do chamado (dúvida, reclamação…): o campo “nature” do chamado. Só as ativas são oferecidas.',
  catNaturesNew: 'Nova natureza',
  catNaturesEdit: 'Editar a natureza {id}',
  catNaturesSaved: 'Natureza {id} salva.',
  catFieldId: 'Id',
  catFieldIdentifier: 'Identificador',
  catFieldName: 'Nome',
  catFieldDescription: 'Descrição',
  catFieldActive: 'Ativa',
  catFieldLevel: 'Nível',
  catFieldResponseTime: 'Prazo de resposta (horas)',
  catFieldType: 'Tipo de categoria',
  catFieldDefaultPriority: 'Prioridade padrão',
  catHintIntegerId:
    'Um número inteiro de 1 a 2147483647, escolhido por você: o id do registro nas opções de chamado dos parceiros. Não pode ser mudado depois.',
  catHintCompanyId:
    'De 1 a 64 letras, dígitos, “.”, “_” ou “-”, escolhidos por você: os parceiros o enviam no campo “company” do chamado. Não pode ser mudado depois.',
  catHintNatureId:
    'De 1 a 64 letras, dígitos, “.”, “_” ou “-”, escolhidos por você: os parceiros o enviam no campo “nature” do chamado. Não pode ser mudado depois.',
  catHintName: 'Obrigatório, no máximo 200 caracteres; espaços no início e no fim são removidos.',
  catHintDescription:
    'Opcional, no máximo 500 caracteres (o limite da documentação). Deixe em branco se não houver.',
  catHintActiveCompany: 'Só as empresas ativas são oferecidas aos parceiros e aceitas nos chamados.',
  catHintActiveNature:
    'Só as naturezas ativas são oferecidas; um chamado com uma natureza inativa é recusado (invalid_nature).',
  catHintLevel:
    'Um número inteiro de 1 a 2147483647: os parceiros recebem as prioridades a partir do nível 1, o mais urgente.',
  catHintResponseTime: 'Horas inteiras, de 0 a 100000; apenas informativo para os parceiros.',
  catHintType: 'O tipo a que a categoria pertence.',
  catHintDefaultPriority:
    'A prioridade que um chamado desta categoria recebe quando não informa nenhuma. A documentação diz aos parceiros que toda categoria tem uma.',
  catChooseType: 'Escolha um tipo',
  catNoPriority: 'Nenhuma',
  catNoTypes: 'Ainda não há tipo de categoria: crie um antes.',
  catIdTaken: 'já está em uso: {id} já existe (altere-o pela lista)',
  catSave: 'Salvar',
  catCancel: 'Cancelar',
  catEdit: 'Editar',
  catDelete: 'Excluir',
  catEditAria: 'Editar {id}',
  catDeleteAria: 'Excluir {id}',
  catDeleteTitle: 'Excluir a categoria {id} “{name}”?',
  catDeleteIntro: 'A exclusão de uma categoria não pode ser desfeita. Veja o que acontece:',
  catDeleteTickets:
    'Os chamados desta categoria continuam existindo, sem categoria: o category_id deles passa a ser null, inclusive quando um parceiro reenvia um deles.',
  catDeleteDefault:
    'Os sistemas parceiros que a têm como categoria padrão ficam sem ela e não conseguem abrir novos chamados (503 misconfigured_system) até receberem outra categoria padrão: {systems}.',
  catDeleteReleased: 'Os sistemas parceiros para os quais ela está liberada deixam de oferecê-la: {systems}.',
  catDeleteNoSystem: 'Nenhum sistema parceiro a tem como categoria padrão ou entre as liberadas.',
  catDeleteButton: 'Excluir a categoria {id}',
  catDeleted: 'Categoria {id} “{name}” excluída.',
  maintTitle: 'Manutenção da API de chamados',
  maintState: 'Agora',
  maintOnShort: 'Em manutenção',
  maintOn: 'Toda chamada à API de chamados recebe 503 com Retry-After: {seconds} ({seconds} segundos).',
  maintOffShort: 'Aberta',
  maintOff: 'A API de chamados atende os parceiros.',
  maintExplain:
    'Com a manutenção ligada, toda chamada à API de chamados dos parceiros (/v1/api-external-system/…) recebe 503 temporarily_unavailable com o cabeçalho Retry-After, antes de qualquer outra verificação. Os parceiros guardam os chamados e os reenviam depois da espera com o mesmo external_id. A API de dados do PDV dos lojistas não é afetada.',
  maintFleet: 'Este processo obedece na hora; os demais processos da frota, em até um segundo.',
  maintRetryAfter: 'Retry-After (segundos)',
  maintRetryHint:
    'Um número inteiro de 1 a 86400 (um dia): quanto tempo os parceiros devem esperar antes de reenviar. Em branco: 300 (5 minutos), o padrão da API.',
  maintSwitchOn: 'Ligar a manutenção',
  maintSwitchOnButton: 'Continuar',
  maintConfirmTitle: 'Desligar a API de chamados para manutenção?',
  maintConfirmText:
    'A partir da confirmação, toda chamada à API de chamados dos parceiros recebe 503 temporarily_unavailable com Retry-After: {seconds}, até você desligar a manutenção aqui. Nenhum chamado é aberto nesse meio-tempo: os parceiros guardam os seus e os reenviam depois.',
  maintConfirmButton: 'Ligar a manutenção: os parceiros recebem 503',
  maintChange: 'Alterar a espera',
  maintChangeButton: 'Salvar o Retry-After',
  maintSwitchOff: 'Desligar a manutenção',
  maintSwitchOffText:
    'A API de chamados volta a atender os parceiros na hora; os chamados que eles guardaram e reenviam com o external_id são abertos uma única vez.',
  maintSwitchOffButton: 'Desligar a manutenção: os parceiros voltam a ser atendidos',
  maintDoneOn: 'A manutenção está ligada: a API de chamados responde 503 com Retry-After de {seconds} s.',
  maintDoneOff: 'A manutenção está desligada: a API de chamados voltou a atender os parceiros.',
};

export const CATALOG_MESSAGES: Catalogue<Key> = { en, 'pt-BR': ptBR };

/** A text of the catalog's and the maintenance switch's pages. */
export type CatalogMessage = Key;
