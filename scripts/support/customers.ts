// Ordinary customers of many naming traditions, made by code for the screening benchmark's
// fairness figures (`npm run bench:screening`): the kind of file a European or Gulf bank screens
// every night, in the Latin spellings customers type, about half with a date of birth.
//
// Source: name parts and name shapes compiled by the team from general knowledge of naming
// practice in each tradition (common given names, family names, particles, the order people
// write them in and the spellings they use). No data set was copied. The evaluation sets the
// screening issues reserve are not used here, nor anything derived from them. These people are
// made up: a few may share a name with a listed person, as real customers do.
import { seededRandom } from '../../src-main/service/core/random';
import type { SubjectInput } from '../../src-main/service/core/screening/engine';

type Pick = <T>(xs: readonly T[]) => T;

interface Tradition {
  /** What the benchmark prints. */
  label: string;
  /** Country (ISO alpha-2) a customer of this tradition most often gives, when one is given. */
  country: string;
  /** One customer's name parts. */
  make(pick: Pick, r: () => number): { first: string; middle?: string; last: string; female: boolean };
}

const w = (s: string): string[] => s.trim().split(/\s*,\s*/);

// ---- South Asian Muslim (Pakistan)
const PK_M = w('Ali, Ahmed, Hassan, Hussain, Bilal, Usman, Umar, Imran, Kamran, Faisal, Asif, Tariq, Zubair, Hamza, Saad, Waqas, Adnan, Shahid, Zahid, Naveed, Irfan, Junaid, Salman, Fahad, Owais, Danish, Arslan, Rizwan, Noman, Abdullah, Haris, Shoaib, Shahzad, Farhan, Kashif, Nadeem, Sajid, Wasim, Yasir, Ahsan');
const PK_F = w('Ayesha, Fatima, Zainab, Sana, Hina, Maryam, Amna, Sadia, Rabia, Nida, Saima, Kiran, Mehwish, Bushra, Asma, Farah, Iqra, Sidra, Anam, Hira, Nadia, Shazia, Uzma, Samina, Rubina');
const PK_L = w('Khan, Ahmed, Ali, Hussain, Shah, Malik, Butt, Sheikh, Qureshi, Chaudhry, Iqbal, Raza, Siddiqui, Akhtar, Javed, Aslam, Rana, Mirza, Bhatti, Abbasi, Awan, Baig, Hashmi, Rehman, Nawaz, Anwar, Mehmood, Saleem, Rafiq, Arshad, Zafar, Haider, Jamil, Gill, Cheema, Tariq, Yousaf, Rashid, Ansari, Farooq');
const MUHAMMAD = w('Muhammad, Mohammad, Mohammed, Muhammed, Mohamed');

// ---- Bangladesh
const BD_M = w('Rafiqul, Shahidul, Aminul, Mizanur, Habibur, Mahbubur, Saiful, Anisur, Nazrul, Kamrul, Rezaul, Jahangir, Abdul, Abul, Mostafa, Golam, Nurul, Shafiqul, Monirul, Asaduzzaman, Rakib, Tanvir, Sohel, Rubel, Shakil, Sumon, Arif, Faruk, Jamal, Delwar, Alamgir, Mamun, Harun, Selim, Kabir');
const BD_F = w('Nusrat, Sharmin, Farzana, Taslima, Rokeya, Shirin, Nasrin, Sultana, Jannatul, Sabina, Rehana, Shamima, Nazma, Hasina, Ruma, Mousumi, Tania, Sumaiya, Afroza, Laila');
const BD_L = w('Islam, Rahman, Hossain, Hasan, Ahmed, Uddin, Alam, Chowdhury, Khan, Miah, Sarker, Akter, Begum, Haque, Karim, Sheikh, Mondal, Talukder, Bhuiyan, Khatun, Molla, Howlader, Mahmud, Kabir, Sikder');

// ---- Somali (given name, father's, grandfather's)
const SO_M = w('Abdirahman, Abdullahi, Mohamed, Ahmed, Hassan, Abdi, Ali, Omar, Yusuf, Ismail, Mahad, Abdikarim, Abdiaziz, Liban, Farah, Hussein, Said, Jama, Warsame, Dahir, Guled, Bashir, Mustafe, Khalid, Osman, Nur, Aden, Ibrahim');
const SO_F = w('Hodan, Fadumo, Amina, Halima, Sahra, Hawa, Asha, Deeqa, Ifrah, Nasra, Khadra, Ayan, Hibo, Sagal, Ubah, Fartun, Idil, Muna, Faadumo, Ikran');
const SO_FATHER = w('Mohamed, Ahmed, Ali, Hassan, Abdi, Omar, Yusuf, Farah, Hussein, Jama, Osman, Warsame, Ismail, Nur, Aden, Dahir, Abdullahi, Said, Egal, Duale, Elmi, Hersi, Mohamud, Abdulle, Gedi');

// ---- Chinese (pinyin; family name first or last)
const CN_FAM = w('Wang, Li, Zhang, Liu, Chen, Yang, Huang, Zhao, Wu, Zhou, Xu, Sun, Ma, Zhu, Hu, Guo, He, Lin, Gao, Luo, Zheng, Liang, Xie, Song, Tang, Han, Feng, Deng, Cao, Peng');
const CN_GIV = w('Wei, Fang, Na, Min, Jing, Lei, Jie, Yan, Tao, Ming, Jun, Yong, Qiang, Hui, Li, Ping, Gang, Xin, Hong, Yu, Xiaoming, Xiaoyan, Jianguo, Jianhua, Haiyan, Guoqiang, Zhiwei, Yuxuan, Zihan, Haoran, Yiming, Xiaohong, Lihua, Wenjie, Jiahui, Chenxi, Ruoxi, Zhiqiang, Hongmei, Shuang');

// ---- Korean
const KR_FAM = w('Kim, Lee, Park, Choi, Jung, Kang, Cho, Yoon, Jang, Lim, Han, Oh, Seo, Shin, Kwon, Hwang, Ahn, Song, Yoo, Hong');
const KR_GIV = w('Min-jun, Seo-yeon, Ji-hoon, Ji-woo, Hyun-woo, Su-bin, Ji-eun, Min-seo, Jun-ho, Yeon-woo, Do-yoon, Ha-eun, Seung-hyun, Eun-ji, Dong-hyun, Ye-jin, Sung-min, Hye-jin, Jae-won, So-yeon, Tae-yang, Jin-woo, Young-ho, Mi-kyung, Sang-woo, Kyung-soo, Joon-young, Da-eun');

// ---- Afghan
const AF_M = w('Ahmad, Mohammad, Abdul, Gul, Zabihullah, Hamidullah, Rahmatullah, Naqibullah, Ajmal, Farid, Habib, Jawid, Karim, Mirwais, Nasir, Omid, Qadir, Rahim, Sayed, Shafiq, Wahid, Yama, Zalmay, Baryalai, Fawad, Hekmat, Khalil, Masood, Nabi, Obaidullah');
const AF_F = w('Zahra, Fatima, Malalai, Marzia, Nargis, Parwana, Roya, Shabnam, Soraya, Zarghona, Farishta, Habiba, Laila, Mariam, Nadia, Freshta, Shakila, Zakia, Hamida, Mina');
const AF_L = w('Ahmadzai, Popal, Noori, Sultani, Hakimi, Rahimi, Karimi, Stanekzai, Barakzai, Durrani, Hotak, Mohammadi, Safi, Wardak, Yousufzai, Amiri, Habibi, Nazari, Qaderi, Sahak, Samadi, Azizi, Niazi, Shinwari, Zazai, Mangal, Haqmal, Rasuli, Jalali, Faizi');

// ---- Levantine Arab
const LV_M = w('Mohammad, Ahmad, Mahmoud, Omar, Khaled, Rami, Sami, Fadi, Ziad, Tarek, Nabil, Bassam, Hani, Walid, Majed, Samer, Imad, Jihad, Karim, Rabih, Elias, Georges, Marwan, Nizar, Bilal, Ayman, Hassan, Ali, Yousef, Ibrahim');
const LV_F = w('Lina, Rana, Maya, Nour, Rima, Hiba, Dima, Layla, Reem, Samar, Hala, Mona, Nadine, Rasha, Suha, Yasmine, Carla, Rita, Zeina, Lara');
const LV_L = w('Haddad, Khoury, Nasser, Saleh, Hamdan, Khalil, Mansour, Haddad, Shami, Najjar, Aoun, Frangieh, Daher, Kassab, Habib, Saad, Hijazi, Odeh, Darwish, Qasem, Abboud, Zein, Sabbagh, Tannous, Barakat, Al-Khatib, Al-Masri, Al-Hallak, Al-Ahmad, Jaber');

// ---- Maghreb (French-style spellings)
const MG_M = w('Mohamed, Mohammed, Youssef, Karim, Rachid, Abdelkader, Mustapha, Said, Hamid, Khalid, Nabil, Hicham, Mehdi, Amine, Yassine, Sofiane, Abdellah, Driss, Larbi, Mourad, Ahmed, Brahim, Omar, Hassan, Farid, Noureddine, Redouane, Abdelaziz, Bilal, Ayoub');
const MG_F = w('Fatima, Khadija, Aicha, Naima, Samira, Malika, Nadia, Souad, Leila, Zineb, Meryem, Houda, Salma, Imane, Sara, Karima, Latifa, Rachida, Hanane, Asmaa');
const MG_L = w('Benali, Bennani, El Amrani, Alaoui, Idrissi, Tazi, Berrada, Mansouri, Bouazza, Benyahia, Belkacem, Haddadi, Saidi, Boukhari, Cherif, Amrani, Ouali, Ziani, Belhadj, Hamdi, Rahmani, Chaouki, Lahlou, Naciri, Kettani, Ait Ali, Ben Salah, Bouzid, Messaoudi, Khelifi');

// ---- Persian
const IR_M = w('Mohammad, Ali, Hossein, Reza, Mehdi, Amir, Hamid, Saeed, Majid, Hassan, Morteza, Javad, Mostafa, Mahmoud, Ahmad, Behrouz, Babak, Dariush, Farhad, Kourosh, Arash, Omid, Kamran, Payam, Siamak, Navid, Pouya, Shahram, Vahid, Masoud');
const IR_F = w('Maryam, Zahra, Fatemeh, Sara, Narges, Leila, Mina, Shirin, Parisa, Nasrin, Fariba, Mahsa, Niloufar, Elham, Azadeh, Roya, Samira, Somayeh, Golnaz, Shabnam');
const IR_L = w('Hosseini, Mohammadi, Rezaei, Ahmadi, Karimi, Moradi, Rahimi, Jafari, Sadeghi, Mousavi, Ghasemi, Hashemi, Kazemi, Ebrahimi, Heidari, Zamani, Rostami, Akbari, Sharifi, Abbasi, Rahmani, Mahmoudi, Tehrani, Shirazi, Najafi, Bagheri, Nazari, Ranjbar, Farahani, Ansari');
const IR_COMPOUND = w('Mohammad Reza, Mohammad Ali, Ali Reza, Amir Hossein, Mohammad Hossein, Mohammad Mehdi, Abbas Ali, Seyed Ali, Seyed Mohammad');

// ---- Gulf Arab
const GF_M = w('Mohammed, Abdullah, Khalid, Saeed, Sultan, Rashid, Hamad, Faisal, Saud, Fahad, Nasser, Majed, Turki, Mansour, Abdulaziz, Abdulrahman, Salem, Hamdan, Mubarak, Obaid, Ahmed, Ali, Omar, Yousef, Badr, Nawaf, Talal, Waleed, Ibrahim, Saleh');
const GF_F = w('Fatima, Mariam, Noura, Aisha, Hessa, Latifa, Maha, Sara, Reem, Shaikha, Amna, Moza, Alia, Hind, Dana, Nouf, Lulwa, Asma, Hanan, Wafa');
const GF_L = w('Al Qahtani, Al Ghamdi, Al Otaibi, Al Harbi, Al Zahrani, Al Shehri, Al Dosari, Al Mutairi, Al Mansouri, Al Nuaimi, Al Marri, Al Kuwari, Al Suwaidi, Al Shamsi, Al Mazrouei, Al Kaabi, Al Hashimi, Al Thani, Al Falasi, Al Rashidi, Al Ajmi, Al Enezi, Al Sabah, Al Khalifa, Al Balushi, Al Harthy, Al Hinai, Al Saadi, Al Maktoum, Al Zaabi');

// ---- Turkish
const TR_M = w('Mehmet, Mustafa, Ahmet, Ali, Hüseyin, Hasan, İbrahim, Murat, Emre, Burak, Fatih, Yusuf, Ömer, Kemal, Serkan, Cem, Oğuz, Volkan, Tolga, Mert, Can, Onur, Erkan, Gökhan, Hakan');
const TR_F = w('Ayşe, Fatma, Emine, Hatice, Zeynep, Elif, Merve, Esra, Büşra, Özlem, Derya, Ebru, Gül, Selin, Aylin, Deniz, Sibel, Tuğba, Yasemin, Hülya');
const TR_L = w('Yılmaz, Kaya, Demir, Şahin, Çelik, Yıldız, Yıldırım, Öztürk, Aydın, Özdemir, Arslan, Doğan, Kılıç, Aslan, Çetin, Kara, Koç, Kurt, Özkan, Şimşek, Polat, Korkmaz, Erdoğan, Aksoy, Güneş');

// ---- Indian (Hindu, Sikh)
const IN_M = w('Rahul, Amit, Rajesh, Suresh, Vijay, Anil, Sanjay, Ravi, Arjun, Vikram, Rohit, Deepak, Manoj, Ajay, Sunil, Arun, Gurpreet, Harpreet, Manpreet, Jaspreet, Karan, Nikhil, Pradeep, Ramesh, Sandeep');
const IN_F = w('Priya, Pooja, Anjali, Neha, Sunita, Kavita, Anita, Deepa, Meena, Lakshmi, Divya, Shreya, Swati, Rekha, Geeta, Simran, Jaspreet, Harleen, Nisha, Ritu');
const IN_L = w('Sharma, Patel, Singh, Kumar, Gupta, Verma, Reddy, Nair, Iyer, Rao, Joshi, Mehta, Shah, Desai, Chauhan, Yadav, Mishra, Pandey, Agarwal, Kapoor, Malhotra, Bhatia, Sandhu, Dhillon, Grewal');

// ---- Nigerian
const NG_M = w('Chinedu, Emeka, Oluwaseun, Tunde, Babatunde, Chukwuemeka, Ifeanyi, Obinna, Segun, Adebayo, Yusuf, Musa, Ibrahim, Abubakar, Aliyu, Uche, Kelechi, Femi, Kunle, Tochukwu');
const NG_F = w('Chioma, Ngozi, Adaeze, Funmilayo, Folake, Aisha, Zainab, Amina, Blessing, Chiamaka, Nkechi, Yetunde, Bukola, Hauwa, Ifeoma');
const NG_L = w('Okafor, Okonkwo, Adeyemi, Ogunleye, Eze, Nwosu, Adebayo, Balogun, Bello, Abubakar, Ibrahim, Mohammed, Okoro, Olawale, Uchenna, Afolabi, Nnamdi, Chukwu, Obi, Lawal, Danjuma, Usman, Okeke, Onyeka, Adewale');

// ---- Vietnamese
const VN_FAM = w('Nguyen, Tran, Le, Pham, Hoang, Huynh, Phan, Vu, Vo, Dang, Bui, Do, Ho, Ngo, Duong, Ly');
const VN_MID = w('Van, Thi, Minh, Duc, Thanh, Ngoc, Quoc, Huu, Hoang, Thu, Kim, Gia');
const VN_GIV = w('Anh, Hung, Dung, Linh, Huong, Tuan, Hai, Lan, Mai, Nam, Long, Phuong, Trang, Thao, Hoa, Khanh, Quang, Son, Thuy, Binh, Cuong, Hanh, Hieu, Tam, Vy');

// ---- Russian (with patronymics and feminine surname forms)
const RU_M = w('Aleksandr, Sergey, Dmitry, Andrey, Alexey, Ivan, Mikhail, Nikolay, Vladimir, Yevgeny, Pavel, Oleg, Igor, Roman, Maxim, Denis, Artem, Kirill, Anton, Yuri');
const RU_F = w('Elena, Olga, Natalia, Tatiana, Irina, Svetlana, Anna, Maria, Yulia, Ekaterina, Marina, Anastasia, Victoria, Ksenia, Daria');
const RU_L = w('Ivanov, Smirnov, Kuznetsov, Popov, Vasiliev, Petrov, Sokolov, Mikhailov, Novikov, Fedorov, Morozov, Volkov, Alekseev, Lebedev, Semenov, Egorov, Pavlov, Kozlov, Stepanov, Nikolaev, Orlov, Andreev, Makarov, Zaitsev, Solovyov');
const RU_PAT = w('Aleksandr, Sergey, Ivan, Mikhail, Nikolay, Vladimir, Pavel, Yuri, Viktor, Anatoly, Petr, Boris, Gennady, Valery, Oleg');

// ---- European (Spanish, Portuguese, French, German, Italian, Polish)
const ES_M = w('José, Juan, Carlos, Luis, Javier, Miguel, Antonio, Francisco, Manuel, David, Jorge, Pedro, Alejandro, Rafael, Fernando, Pablo, Sergio, Diego, Andrés, Ramón');
const ES_F = w('María, Carmen, Ana, Laura, Isabel, Lucía, Marta, Elena, Cristina, Rosa, Pilar, Paula, Sofía, Teresa, Raquel, Beatriz, Patricia, Silvia, Alicia, Gloria');
const ES_L = w('García, Rodríguez, González, Fernández, López, Martínez, Sánchez, Pérez, Gómez, Martín, Jiménez, Ruiz, Hernández, Díaz, Moreno, Muñoz, Álvarez, Romero, Alonso, Gutiérrez, Navarro, Torres, Domínguez, Vázquez, Ramos, Gil, Ramírez, Serrano, Blanco, Molina');
const PT_M = w('João, José, António, Francisco, Pedro, Paulo, Carlos, Manuel, Rui, Miguel, Tiago, Luís, Bruno, Ricardo, Rafael, Gabriel, Lucas, Mateus, Felipe, Gustavo');
const PT_F = w('Maria, Ana, Joana, Beatriz, Mariana, Inês, Sofia, Catarina, Rita, Sara, Juliana, Camila, Fernanda, Larissa, Patrícia, Adriana, Luana, Bruna, Letícia, Aline');
const PT_L = w('Silva, Santos, Ferreira, Pereira, Oliveira, Costa, Rodrigues, Martins, Sousa, Fernandes, Gonçalves, Gomes, Lopes, Marques, Alves, Almeida, Ribeiro, Pinto, Carvalho, Teixeira, Moreira, Correia, Mendes, Nunes, Soares, Barbosa, Rocha, Cardoso, Lima, Araújo');
const FR_M = w('Jean, Pierre, Michel, Philippe, Alain, Nicolas, Christophe, Laurent, Julien, Thomas, Antoine, Olivier, François, Sébastien, Mathieu, Guillaume, Hugo, Louis, Lucas, Théo');
const FR_F = w('Marie, Nathalie, Isabelle, Sylvie, Catherine, Sophie, Claire, Julie, Camille, Léa, Manon, Chloé, Émilie, Aurélie, Céline, Valérie, Anne, Sandrine, Pauline, Inès');
const FR_L = w('Martin, Bernard, Dubois, Thomas, Robert, Richard, Petit, Durand, Leroy, Moreau, Simon, Laurent, Lefebvre, Michel, Garcia, David, Bertrand, Roux, Vincent, Fournier, Morel, Girard, André, Lefèvre, Mercier, Dupont, Lambert, Bonnet, François, Martinez');
const DE_M = w('Thomas, Michael, Andreas, Stefan, Christian, Markus, Frank, Jürgen, Klaus, Peter, Wolfgang, Uwe, Tobias, Jan, Lukas, Felix, Jonas, Maximilian, Sebastian, Florian');
const DE_F = w('Sabine, Petra, Monika, Claudia, Susanne, Andrea, Birgit, Katrin, Julia, Anna, Laura, Lena, Lea, Sarah, Katharina, Stefanie, Nicole, Melanie, Sandra, Ursula');
const DE_L = w('Müller, Schmidt, Schneider, Fischer, Weber, Meyer, Wagner, Becker, Schulz, Hoffmann, Schäfer, Koch, Bauer, Richter, Klein, Wolf, Schröder, Neumann, Schwarz, Zimmermann, Braun, Krüger, Hofmann, Hartmann, Lange, Schmitt, Werner, Krause, Meier, Lehmann');
const IT_M = w('Giuseppe, Giovanni, Antonio, Mario, Luigi, Francesco, Marco, Andrea, Alessandro, Paolo, Stefano, Roberto, Luca, Matteo, Lorenzo, Davide, Simone, Federico, Riccardo, Salvatore');
const IT_F = w('Maria, Anna, Giuseppina, Rosa, Francesca, Giulia, Chiara, Sara, Martina, Valentina, Alessandra, Elena, Silvia, Laura, Paola, Federica, Sofia, Aurora, Alice, Giorgia');
const IT_L = w('Rossi, Russo, Ferrari, Esposito, Bianchi, Romano, Colombo, Ricci, Marino, Greco, Bruno, Gallo, Conti, De Luca, Mancini, Costa, Giordano, Rizzo, Lombardi, Moretti, Barbieri, Fontana, Santoro, Mariani, Rinaldi, Caruso, Ferrara, Galli, Martini, Leone');
const PL_M = w('Piotr, Krzysztof, Andrzej, Tomasz, Paweł, Michał, Marcin, Jakub, Adam, Łukasz, Marek, Grzegorz, Mateusz, Wojciech, Kamil');
const PL_F = w('Anna, Maria, Katarzyna, Małgorzata, Agnieszka, Barbara, Ewa, Krystyna, Magdalena, Joanna, Aleksandra, Zofia, Monika, Natalia, Karolina');
const PL_L = w('Nowak, Kowalski, Wiśniewski, Wójcik, Kowalczyk, Kamiński, Lewandowski, Zieliński, Szymański, Woźniak, Dąbrowski, Kozłowski, Jankowski, Mazur, Kwiatkowski, Krawczyk, Piotrowski, Grabowski, Nowakowski, Pawłowski');
// Polish feminine forms of -ski/-cki surnames.
const plFem = (s: string) => s.replace(/ski$/, 'ska').replace(/cki$/, 'cka');
const ruFem = (s: string) => (/(ov|ev|in)$/.test(s) ? `${s}a` : s);
const ruPat = (father: string, female: boolean) => {
  const stem = father.replace(/(y|iy|ey)$/, (m) => (m === 'y' ? 'i' : 'e')).replace(/ay$/, 'ae');
  const soft = /[ei]$/.test(stem);
  return female ? `${stem}${soft ? 'vna' : 'ovna'}` : `${stem}${soft ? 'vich' : 'ovich'}`;
};

const gendered = (m: readonly string[], f: readonly string[]) => (pick: Pick, r: () => number) => {
  const female = r() < 0.45;
  return { female, given: pick(female ? f : m) };
};

export const TRADITIONS: readonly Tradition[] = [
  { label: 'Pakistani', country: 'PK', make(pick, r) {
    const { female, given } = gendered(PK_M, PK_F)(pick, r);
    const x = r();
    if (!female && x < 0.35) return { female, first: pick(MUHAMMAD), middle: given, last: pick(PK_L) };
    if (!female && x < 0.45) return { female, first: 'Syed', middle: given, last: pick(['Shah', 'Bukhari', 'Naqvi', 'Gillani', 'Rizvi', 'Hussain', 'Zaidi', 'Jafri']) };
    return { female, first: given, last: pick(PK_L) };
  } },
  { label: 'Bangladeshi', country: 'BD', make(pick, r) {
    const female = r() < 0.45;
    const x = r();
    if (female) return { female, first: pick(BD_F), last: pick(['Akter', 'Begum', 'Khatun', 'Islam', 'Rahman', 'Sultana', 'Jahan', 'Chowdhury', 'Haque']) };
    if (x < 0.4) return { female, first: pick(['Md', 'Md.', 'Mohammad', 'Mohammed', 'Muhammad']), middle: pick(BD_M), last: pick(BD_L) };
    if (x < 0.55) return { female, first: pick(['Abdul', 'Abu', 'Abdur']), middle: pick(['Karim', 'Rahim', 'Kalam', 'Hannan', 'Mannan', 'Jabbar', 'Latif', 'Razzak']), last: pick(BD_L) };
    return { female, first: pick(BD_M), last: pick(BD_L) };
  } },
  { label: 'Somali', country: 'SO', make(pick, r) {
    const { female, given } = gendered(SO_M, SO_F)(pick, r);
    let father = pick(SO_FATHER);
    let grand = pick(SO_FATHER);
    while (father === given) father = pick(SO_FATHER);
    while (grand === father) grand = pick(SO_FATHER);
    return r() < 0.6 ? { female, first: given, middle: father, last: grand } : { female, first: given, last: father };
  } },
  { label: 'Chinese', country: 'CN', make(pick, r) {
    const fam = pick(CN_FAM);
    const giv = pick(CN_GIV);
    const female = r() < 0.5;
    // Customers abroad often write the given name first; at home the family name comes first.
    return r() < 0.5 ? { female, first: giv, last: fam } : { female, first: fam, last: giv };
  } },
  { label: 'Korean', country: 'KR', make(pick, r) {
    const fam = pick(KR_FAM);
    let giv = pick(KR_GIV);
    const x = r();
    if (x < 0.3) giv = giv.replace('-', '');
    else if (x < 0.45) giv = giv.replace('-', ' ');
    const female = r() < 0.5;
    return r() < 0.6 ? { female, first: giv, last: fam } : { female, first: fam, last: giv };
  } },
  { label: 'Afghan', country: 'AF', make(pick, r) {
    const { female, given } = gendered(AF_M, AF_F)(pick, r);
    if (!female && (given === 'Abdul' || given === 'Gul' || given === 'Sayed')) return { female, first: given, middle: pick(['Rahman', 'Wahid', 'Qadir', 'Hakim', 'Ahmad', 'Mohammad', 'Bashir', 'Hadi']), last: pick(AF_L) };
    if (!female && r() < 0.2) return { female, first: given, middle: pick(['Shah', 'Khan', 'Jan', 'Ullah']), last: pick(AF_L) };
    return { female, first: given, last: pick(AF_L) };
  } },
  { label: 'Levantine Arab', country: 'LB', make(pick, r) {
    const { female, given } = gendered(LV_M, LV_F)(pick, r);
    return r() < 0.25 ? { female, first: given, middle: pick(LV_M), last: pick(LV_L) } : { female, first: given, last: pick(LV_L) };
  } },
  { label: 'Maghreb', country: 'MA', make(pick, r) {
    const { female, given } = gendered(MG_M, MG_F)(pick, r);
    if (female && given === 'Fatima' && r() < 0.5) return { female, first: 'Fatima Zahra', last: pick(MG_L) };
    return { female, first: given, last: pick(MG_L) };
  } },
  { label: 'Persian', country: 'IR', make(pick, r) {
    const female = r() < 0.45;
    if (!female && r() < 0.3) return { female, first: pick(IR_COMPOUND), last: pick(IR_L) };
    return { female, first: pick(female ? IR_F : IR_M), last: pick(IR_L) };
  } },
  { label: 'Gulf Arab', country: 'SA', make(pick, r) {
    const { female, given } = gendered(GF_M, GF_F)(pick, r);
    const fam = pick(GF_L);
    const x = r();
    if (x < 0.3) return { female, first: given, middle: `${female ? 'bint' : 'bin'} ${pick(GF_M)}`, last: fam };
    if (x < 0.5) return { female, first: given, middle: pick(GF_M), last: fam };
    return { female, first: given, last: r() < 0.3 ? fam.replace('Al ', 'Al-') : fam };
  } },
  { label: 'Turkish', country: 'TR', make(pick, r) {
    const { female, given } = gendered(TR_M, TR_F)(pick, r);
    return { female, first: given, last: pick(TR_L) };
  } },
  { label: 'Indian', country: 'IN', make(pick, r) {
    const { female, given } = gendered(IN_M, IN_F)(pick, r);
    if (/preet|Harleen|Simran/.test(given)) return { female, first: given, last: female ? pick(['Kaur', 'Sandhu', 'Dhillon', 'Grewal', 'Gill']) : pick(['Singh', 'Sandhu', 'Dhillon', 'Grewal', 'Gill']) };
    return { female, first: given, last: pick(IN_L) };
  } },
  { label: 'Nigerian', country: 'NG', make(pick, r) {
    const { female, given } = gendered(NG_M, NG_F)(pick, r);
    return r() < 0.2 ? { female, first: given, middle: pick(NG_M), last: pick(NG_L) } : { female, first: given, last: pick(NG_L) };
  } },
  { label: 'Vietnamese', country: 'VN', make(pick, r) {
    const female = r() < 0.5;
    const fam = pick(VN_FAM);
    const mid = female ? 'Thi' : pick(VN_MID);
    const giv = pick(VN_GIV);
    return r() < 0.5 ? { female, first: fam, middle: mid, last: giv } : { female, first: `${mid} ${giv}`, last: fam };
  } },
  { label: 'Russian', country: 'RU', make(pick, r) {
    const { female, given } = gendered(RU_M, RU_F)(pick, r);
    const fam = female ? ruFem(pick(RU_L)) : pick(RU_L);
    return r() < 0.4 ? { female, first: given, middle: ruPat(pick(RU_PAT), female), last: fam } : { female, first: given, last: fam };
  } },
  { label: 'Spanish', country: 'ES', make(pick, r) {
    const { female, given } = gendered(ES_M, ES_F)(pick, r);
    const a = pick(ES_L);
    let b = pick(ES_L);
    while (b === a) b = pick(ES_L);
    return r() < 0.6 ? { female, first: given, last: `${a} ${b}` } : { female, first: given, last: a };
  } },
  { label: 'Portuguese', country: 'PT', make(pick, r) {
    const { female, given } = gendered(PT_M, PT_F)(pick, r);
    const a = pick(PT_L);
    const b = pick(PT_L);
    return r() < 0.5 ? { female, first: given, last: a === b ? a : `${a}${r() < 0.3 ? ' da ' : ' '}${b}` } : { female, first: given, last: b };
  } },
  { label: 'French', country: 'FR', make(pick, r) {
    const { female, given } = gendered(FR_M, FR_F)(pick, r);
    return { female, first: given, last: pick(FR_L) };
  } },
  { label: 'German', country: 'DE', make(pick, r) {
    const { female, given } = gendered(DE_M, DE_F)(pick, r);
    return { female, first: given, last: pick(DE_L) };
  } },
  { label: 'Italian', country: 'IT', make(pick, r) {
    const { female, given } = gendered(IT_M, IT_F)(pick, r);
    return { female, first: given, last: pick(IT_L) };
  } },
  { label: 'Polish', country: 'PL', make(pick, r) {
    const { female, given } = gendered(PL_M, PL_F)(pick, r);
    const fam = pick(PL_L);
    return { female, first: given, last: female ? plFem(fam) : fam };
  } },
];

export interface Customer {
  tradition: string;
  subject: SubjectInput;
}

/**
 * `perTradition` customers of every tradition. Names are drawn with a skew towards the first
 * entries of each list (the commoner names come first), half of the customers give a date of
 * birth, a third of those a country.
 */
export function makeCustomers(seed: number, perTradition: number): Customer[] {
  const r = seededRandom(seed);
  // Skewed towards the head of a list, as name frequencies are.
  const pick: Pick = (xs) => xs[Math.floor(xs.length * r() * (0.35 + 0.65 * r()))]!;
  const out: Customer[] = [];
  for (const t of TRADITIONS) {
    for (let i = 0; i < perTradition; i++) {
      const n = t.make(pick, r);
      const subject: SubjectInput = { first_name: n.first, last_name: n.last };
      if (n.middle) subject.middle_name = n.middle;
      if (r() < 0.5) {
        const y = 1940 + Math.floor(r() * 66);
        subject.date_of_birth = `${y}-${String(1 + Math.floor(r() * 12)).padStart(2, '0')}-${String(1 + Math.floor(r() * 28)).padStart(2, '0')}`;
        if (r() < 0.35) subject.country = t.country;
        if (r() < 0.5) subject.gender = n.female ? 'female' : 'male';
      }
      out.push({ tradition: t.label, subject });
    }
  }
  return out;
}
